import type { HostPlugin } from '../../plugin-contract.js';
import { assignMemberDetail } from './assign_member_detail.js';
import { assignGroupNm } from './assign_group_nm.js';
import { refreshCs } from './refresh_cs.js';

/** Host implementations of the members plugins, by name. */
export const plugins: HostPlugin[] = [assignMemberDetail, assignGroupNm, refreshCs];

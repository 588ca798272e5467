import type { Plugin } from '../types.js';
import assignMemberDetail from './assign_member_detail.js';
import assignGroupNm from './assign_group_nm.js';
import refreshCs from './refresh_cs.js';

/** Declarations of the privileged members plugins (implementations: src/host-bridge/plugins/members/). */
export const plugins: Plugin[] = [assignMemberDetail, assignGroupNm, refreshCs];

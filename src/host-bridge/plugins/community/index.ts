import type { HostPlugin } from '../../plugin-contract.js';
import { assignNewCommentList } from './assign_new_comment_list.js';
import { assignFavoriteCnt } from './assign_favorite_cnt.js';
import { assignMyFavoriteCnt } from './assign_my_favorite_cnt.js';

/** Host implementations of the comment and favorite plugins, by name. */
export const plugins: HostPlugin[] = [assignNewCommentList, assignFavoriteCnt, assignMyFavoriteCnt];

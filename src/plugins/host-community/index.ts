import type { Plugin } from '../types.js';
import assignNewCommentList from './assign_new_comment_list.js';
import assignFavoriteCnt from './assign_favorite_cnt.js';
import assignMyFavoriteCnt from './assign_my_favorite_cnt.js';

/** Declarations of the privileged comment and favorite plugins (implementations: src/host-bridge/plugins/community/). */
export const plugins: Plugin[] = [assignNewCommentList, assignFavoriteCnt, assignMyFavoriteCnt];

import type { Plugin } from '../types.js';
import assignTagCategoryList from './assign_tag_category_list.js';
import assignTagList from './assign_tag_list.js';
import assignRelationTagList from './assign_relation_tag_list.js';

/** Declarations of the privileged tags plugins (implementations: src/host-bridge/plugins/tags/). */
export const plugins: Plugin[] = [assignTagCategoryList, assignTagList, assignRelationTagList];

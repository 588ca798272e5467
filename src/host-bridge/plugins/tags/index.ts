import type { HostPlugin } from '../../plugin-contract.js';
import { assignTagCategoryList } from './assign_tag_category_list.js';
import { assignTagList } from './assign_tag_list.js';
import { assignRelationTagList } from './assign_relation_tag_list.js';

/** Host implementations of the tags plugins, by name. */
export const plugins: HostPlugin[] = [assignTagCategoryList, assignTagList, assignRelationTagList];

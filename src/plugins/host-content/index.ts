import type { Plugin } from '../types.js';
import apiMethod from './api_method.js';
import assignCsvTable from './assign_csv_table.js';
import assignTopicsCategoryList from './assign_topics_category_list.js';
import assignTopicsDetail from './assign_topics_detail.js';
import childSite from './child_site.js';
import incrementCounter from './increment_counter.js';
import syncCounter from './sync_counter.js';
import updateCounter from './update_counter.js';

/** Declarations of the privileged content plugins (implementations: src/host-bridge/plugins/content/). */
export const plugins: Plugin[] = [assignTopicsDetail, assignTopicsCategoryList, incrementCounter, updateCounter, syncCounter, assignCsvTable, childSite, apiMethod];

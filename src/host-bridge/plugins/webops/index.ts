import type { HostPlugin } from '../../plugin-contract.js';
import { purgeCdnCache } from './purge_cdn_cache.js';
import { kickSpider } from './kick_spider.js';
import { repoDeploy } from './repo_deploy.js';

/** Host implementations of the operations over HTTP, by name. */
export const plugins: HostPlugin[] = [purgeCdnCache, kickSpider, repoDeploy];

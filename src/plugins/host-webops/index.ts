import type { Plugin } from '../types.js';
import purgeCdnCache from './purge_cdn_cache.js';
import kickSpider from './kick_spider.js';
import repoDeploy from './repo_deploy.js';

/** Declarations of the operations a site runs over HTTP (implementations: src/host-bridge/plugins/webops/). */
export const plugins: Plugin[] = [purgeCdnCache, kickSpider, repoDeploy];

import type { Plugin } from '../types.js';
import siteSync from './site_sync.js';

/** Declarations of the site sync plugin (implementation: src/host-bridge/plugins/sync/). */
export const plugins: Plugin[] = [siteSync];

import type { HostPlugin } from '../../plugin-contract.js';
import { siteSync } from './site_sync.js';

/** Host implementations of the site sync plugins, by name. */
export const plugins: HostPlugin[] = [siteSync];

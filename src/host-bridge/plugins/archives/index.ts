import type { HostPlugin } from '../../plugin-contract.js';
import { gzip } from './gzip.js';
import { zip } from './zip.js';
import { unzip } from './unzip.js';

/** Host implementations of the archive plugins, by name. */
export const plugins: HostPlugin[] = [gzip, zip, unzip];

import type { Plugin } from '../types.js';
import gzip from './gzip.js';
import zip from './zip.js';
import unzip from './unzip.js';

/** Declarations of the archive plugins (implementations: src/host-bridge/plugins/archives/). */
export const plugins: Plugin[] = [gzip, zip, unzip];

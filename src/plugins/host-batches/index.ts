import type { Plugin } from '../types.js';
import batch from './batch.js';

/** Declarations of the batches plugins (implementations: src/host-bridge/plugins/batches/). */
export const plugins: Plugin[] = [batch];

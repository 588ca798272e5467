import type { Plugin } from '../types.js';
import secret from './secret.js';

/** Declarations of the privileged secrets plugins (implementations: src/host-bridge/plugins/secrets/). */
export const plugins: Plugin[] = [secret];

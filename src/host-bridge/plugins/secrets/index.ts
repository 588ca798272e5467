import type { HostPlugin } from '../../plugin-contract.js';
import { secret } from './secret.js';

/** Host implementations of the secrets plugins, by name. */
export const plugins: HostPlugin[] = [secret];

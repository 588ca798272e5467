import type { HostPlugin } from '../../plugin-contract.js';
import { rcmsEncrypt } from './rcms_encrypt.js';

/** Host implementations of the crypto plugins, by name. */
export const plugins: HostPlugin[] = [rcmsEncrypt];

import type { Plugin } from '../types.js';
import rcmsEncrypt from './rcms_encrypt.js';

/** Declarations of the privileged crypto plugins (implementations: src/host-bridge/plugins/crypto/). */
export const plugins: Plugin[] = [rcmsEncrypt];

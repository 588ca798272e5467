import type { Plugin } from '../types.js';
import sendmail from './sendmail.js';

/** Declarations of the privileged mail plugins (implementations: src/host-bridge/plugins/mail/). */
export const plugins: Plugin[] = [sendmail];

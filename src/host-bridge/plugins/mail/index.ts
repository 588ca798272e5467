import type { HostPlugin } from '../../plugin-contract.js';
import { sendmail } from './sendmail.js';

/** Host implementations of the mail plugins, by name. */
export const plugins: HostPlugin[] = [sendmail];

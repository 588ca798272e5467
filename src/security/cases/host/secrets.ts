/** HH-03 (secrets in responses). */
import type { SecurityCase } from '../../types.js';

export const HH_SECRETS: SecurityCase[] = [];

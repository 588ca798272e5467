/** HH-07 (raw errors), HH-13 (limit errors without a line). */
import type { SecurityCase } from '../../types.js';

export const HH_ERRORS: SecurityCase[] = [];

/** HH-05 (worker memory), HH-06 (compile off the loop), HH-11 (tenant lookups), HH-14 (kill times). */
import type { SecurityCase } from '../../types.js';

export const HH_POOL: SecurityCase[] = [];

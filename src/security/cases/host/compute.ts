/** HH-01 (strtotime hang), HH-08 (uninterruptible native work). */
import type { SecurityCase } from '../../types.js';

export const HH_COMPUTE: SecurityCase[] = [];

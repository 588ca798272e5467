/** HH-02 (assign_globals), HH-04 ({return} size), HH-09 (read_dir), HH-12 (entry quota). */
import type { SecurityCase } from '../../types.js';

export const HH_CAPS: SecurityCase[] = [];

/** Catalogue cases of category FS (security.md part B). */
import type { SecurityCase } from '../types.js';

export const FS: SecurityCase[] = [];

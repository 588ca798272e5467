/** Catalogue cases of category BR (security.md part B). */
import type { SecurityCase } from '../types.js';

export const BR: SecurityCase[] = [];

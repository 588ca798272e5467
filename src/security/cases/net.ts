/** Catalogue cases of category NET (security.md part B). */
import type { SecurityCase } from '../types.js';

export const NET: SecurityCase[] = [];

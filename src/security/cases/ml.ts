/** Catalogue cases of category ML (security.md part B). */
import type { SecurityCase } from '../types.js';

export const ML: SecurityCase[] = [];

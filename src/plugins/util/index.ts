/**
 * Utility functions of the "Variables, control and utilities" table (arithmetic, dates, ids,
 * logging, hashing) and the PHP modifiers password_hash / password_verify (bcrypt).
 */
import type { Plugin } from '../types.js';
import add from './add.js';
import date from './date.js';
import logger from './logger.js';
import lottery from './lottery.js';
import passwordHash from './password_hash.js';
import passwordVerify from './password_verify.js';
import rcmsHash from './rcms_hash.js';
import setMemory from './set_memory.js';
import strtodate from './strtodate.js';
import subtract from './subtract.js';
import uuid from './uuid.js';

export const plugins: Plugin[] = [
  add,
  subtract,
  date,
  strtodate,
  uuid,
  lottery,
  logger,
  setMemory,
  rcmsHash,
  passwordHash,
  passwordVerify,
];

/** A file error carries its code as `code`; its message does not repeat it (a report prints both). */
import { expect, it } from 'vitest';
import { FileError } from '../../../src/host-adapters/files/errors.js';

it('a file error says its code once', () => {
  const e = new FileError('E_PATH_DENIED', '/files/user/x', 'a symbolic link is on the path');
  expect(e.code).toBe('E_PATH_DENIED');
  expect(e.message).toBe('"/files/user/x": a symbolic link is on the path');
});

/**
 * {put_file tmp_path=... | value=...  path=... | files_path=...  bucket=...}: stores content in file
 * storage.
 *
 * Decisions (the spec row lists the attributes; docs/dialect.md (Files) and plugin-roots.ts fix roles):
 *  - Source: exactly one of tmp_path (a file under /files/temp, e.g. what write_file or save_file
 *    returned) and value (the content itself, a string).
 *  - Destination: exactly one of path (cloud storage: /files/g, /files/a) and files_path (local
 *    storage: /files/user, /files/ltd).
 *  - Anything else (no source, two sources, no destination, two destinations) is
 *    E_BAD_COMBINATION. Any combination of one source and one destination is allowed.
 *  - bucket: only the site's own storage (empty); a named bucket is E_PATH_DENIED.
 *  - The destination is replaced atomically; folders are created; quota (E_QUOTA) and read size
 *    (E_SIZE_LIMIT for a tmp_path larger than maxReadBytes) are TenantFiles' limits.
 *  - No status_var in the spec row: a missing tmp_path file is an error (E_FILE_NOT_FOUND).
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { wireBytes } from '../wire-bytes.js';
import { toStr } from '../../value/convert.js';
import { checkBucket, given, pathAttr, tenantFiles } from './common.js';
import declaration from '../../plugins/host-files/put_file.js';

export const putFile = implement(declaration, async (attrs, call) => {
  const hasTmp = given(attrs.tmp_path);
  const hasValue = attrs.value !== undefined && attrs.value !== null;
  const hasPath = given(attrs.path);
  const hasFilesPath = given(attrs.files_path);
  if (hasTmp === hasValue)
    throw new BridgeError('E_BAD_COMBINATION', '{put_file} needs exactly one source: tmp_path or value');
  if (hasPath === hasFilesPath)
    throw new BridgeError(
      'E_BAD_COMBINATION',
      '{put_file} needs exactly one destination: path (cloud storage) or files_path (local storage)',
    );
  checkBucket('put_file', attrs);
  const dest = hasPath ? pathAttr('put_file', 'path', attrs) : pathAttr('put_file', 'files_path', attrs);
  const src = hasTmp ? pathAttr('put_file', 'tmp_path', attrs) : null;
  const files = tenantFiles(call, 'put_file');
  const data = src ? await files.read(src) : wireBytes(toStr(attrs.value));
  await files.writeAtomic(dest, data);
  return {};
});

/**
 * {remove_file path=... bucket=... status_var=st}: removes one file (never a folder, never a root).
 * Roots: plugin-roots.ts (user, ltd, temp, g, a). bucket: only the site's own storage. status_var:
 * see common.ts (true; false for a missing file or a folder; refusals are errors).
 */
import { implement } from '../plugin-contract.js';
import { checkBucket, pathAttr, tenantFiles, withStatus } from './common.js';
import declaration from '../../plugins/host-files/remove_file.js';

export const removeFile = implement(declaration, async (attrs, call) => {
  const p = pathAttr('remove_file', 'path', attrs);
  checkBucket('remove_file', attrs);
  const files = tenantFiles(call, 'remove_file');
  return withStatus(attrs, () => files.remove(p));
});

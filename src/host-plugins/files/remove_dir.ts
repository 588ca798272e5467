/**
 * {remove_dir path=... status_var=st}: removes an EMPTY folder under /files/user or /files/ltd
 * (docs/dialect.md, Files: "only when it is empty"); a root itself is E_PATH_DENIED (FS-12).
 * status_var: see common.ts (false for a missing or non-empty folder, or a file).
 */
import { implement } from '../plugin-contract.js';
import { pathAttr, tenantFiles, withStatus } from './common.js';
import declaration from '../../plugins/host-files/remove_dir.js';

export const removeDir = implement(declaration, async (attrs, call) => {
  const p = pathAttr('remove_dir', 'path', attrs);
  const files = tenantFiles(call, 'remove_dir');
  return withStatus(attrs, () => files.removeDir(p, { recursive: false }));
});

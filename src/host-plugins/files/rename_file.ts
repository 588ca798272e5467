/**
 * {rename_file src_path="files/g/a.csv" dest_path="files/g/b.csv" status_var=st}: moves a file
 * within cloud storage. Spec: both paths are cloud/object storage paths written WITHOUT a leading
 * slash; local files (files/user/, files/ltd/) cannot be moved: E_PATH_DENIED (FS-09). The
 * destination's folders are created; an existing destination file is replaced; never over a
 * folder or a link. status_var: see common.ts (false for a missing source).
 */
import { implement } from '../plugin-contract.js';
import { pathAttr, tenantFiles, withStatus } from './common.js';
import declaration from '../../plugins/host-files/rename_file.js';

export const renameFile = implement(declaration, async (attrs, call) => {
  const from = pathAttr('rename_file', 'src_path', attrs);
  const to = pathAttr('rename_file', 'dest_path', attrs);
  const files = tenantFiles(call, 'rename_file');
  return withStatus(attrs, () => files.rename(from, to));
});

/**
 * {remove_file path=... bucket=... status_var=st}: removes one file (never a folder, never a root).
 * Roots: plugin-roots.ts (user, ltd, temp, g, a). bucket: only the site's own storage. status_var:
 * see common.ts (true; false for a missing file or a folder; refusals are errors).
 */
import type { HostPlugin } from '../../plugin-contract.js';
import { checkBucket, pathAttr, tenantFiles, withStatus } from './common.js';

export const removeFile: HostPlugin = {
  name: 'remove_file',
  async run(attrs, call) {
    const p = pathAttr('remove_file', 'path', attrs);
    checkBucket('remove_file', attrs);
    const files = tenantFiles(call, 'remove_file');
    return withStatus(attrs, () => files.remove(p));
  },
};

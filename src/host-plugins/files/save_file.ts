/**
 * {save_file value=... var=p}: saves `value` as a new file under /files/temp and stores its
 * virtual path (`/files/temp/<uuid>`) in `var`. Without var nothing is saved (the path could not
 * be known). The write is atomic and counted against the quota (E_QUOTA).
 */
import { implement } from '../plugin-contract.js';
import { generatedPath, given, tenantFiles } from './common.js';
import { contentOf } from './write_file.js';
import declaration from '../../plugins/host-files/save_file.js';

export const saveFile = implement(declaration, async (attrs, call) => {
  if (!given(attrs.var)) return { log: [{ level: 'warning', message: '{save_file} without var saves nothing' }] };
  const p = generatedPath();
  await tenantFiles(call, 'save_file').writeAtomic(p, contentOf(attrs.value));
  return { assign: [[String(attrs.var), p.text]] };
});

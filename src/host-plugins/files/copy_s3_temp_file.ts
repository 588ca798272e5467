/**
 * {copy_s3_temp_file file_id="files/temp/<service_dir>/<site_key>/<uuid>[.ext]" dest_path=...
 * status_var=st}: copies a temporary upload to dest_path.
 *
 * Spec rules: file_id must be an ID of this site's temporary upload endpoints, of exactly that form
 * (parseTempUploadId: shape, canonical uuid, and <site_key> equal to the render's tenant);
 * dest_path a cloud path (/files/g, /files/a) or under /files/temp; local storage (/files/user...)
 * unsupported.
 *
 * Errors (the spec's Errors table): "missing required parameter, or file_id or dest_path of a
 * disallowed kind: no copy; status_var receives false". So with status_var these cases set it to
 * false (with a warning line naming the reason) instead of failing the render; nothing is read or
 * written. Without status_var there is nowhere to report, and the refusal is an error
 * (E_PATH_DENIED / E_BAD_ATTRIBUTE). A missing upload likewise: false, or E_FILE_NOT_FOUND.
 * Quota and size limits are always errors. ACL and Content-Type are the store's, from the
 * destination path and the content (files/acl.ts, files/content-type.ts; S3Files sets them).
 * The temporary upload lives in the tenant's storage at /files/temp/<service_dir>/<site_key>/<uuid>.
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { FileError } from '../../host-adapters/files/errors.js';
import { checkPluginPath, parseTempUploadId } from '../../host-adapters/files/plugin-roots.js';
import { given, isOperationFailure, tenantFiles } from './common.js';
import declaration from '../../plugins/host-files/copy_s3_temp_file.js';

export const copyS3TempFile = implement(declaration, async (attrs, call) => {
  const statusVar = given(attrs.status_var) ? String(attrs.status_var) : null;
  const fail = (e: Error) => {
    if (statusVar === null) throw e;
    return {
      assign: [[statusVar, false]] as [string, false][],
      log: [{ level: 'warning' as const, message: e.message }],
    };
  };
  if (!given(attrs.file_id) || !given(attrs.dest_path))
    return fail(new BridgeError('E_BAD_ATTRIBUTE', '{copy_s3_temp_file} needs file_id and dest_path'));
  let id;
  let dest;
  try {
    id = parseTempUploadId(attrs.file_id, call.identity.tenant);
    dest = checkPluginPath('copy_s3_temp_file', 'dest_path', attrs.dest_path);
  } catch (e) {
    if (e instanceof FileError) return fail(e);
    throw e;
  }
  const files = tenantFiles(call, 'copy_s3_temp_file');
  try {
    const data = await files.read(id.path);
    await files.writeAtomic(dest, data);
  } catch (e) {
    if (isOperationFailure(e)) return fail(e);
    throw e;
  }
  return statusVar !== null ? { assign: [[statusVar, true]] } : {};
});

/**
 * {get_file var=v path="/files/g/..." | url="https://..." save=true save_path="/files/temp/..."}:
 * a file from the tenant's cloud storage or from the web, saved under /files/temp or into var.
 *
 * Decisions (docs/decisions.md D74, D75):
 *  - Exactly one source: path (cloud roots, plugin-roots.ts) or url (`https://` only, through
 *    call.host.http, the egress guard; anything else in url is E_PATH_DENIED, as plugin-roots.ts
 *    says for URL-or-path attributes). Both or neither: E_BAD_COMBINATION.
 *  - bucket: only the site's own storage (empty), as for every files plugin (checkBucket).
 *  - Size: at most MAX_GET_FILE_BYTES, checked on the stored size before reading, and as a cap
 *    of the download (the guard stops reading there): E_SIZE_LIMIT.
 *  - save (default true): written to save_path (under /files/temp only) or a new unique name
 *    there; var receives the virtual path. save=false: var receives the content decoded as UTF-8
 *    (invalid bytes become U+FFFD).
 *  - A missing file, or an answer other than 2xx: var receives "" (the dialect's examples test
 *    `$f|strlen>0`) and a warning. Refusals (path, egress policy, size, quota) are errors.
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { FileError } from '../../host-adapters/files/errors.js';
import { checkPluginPath } from '../../host-adapters/files/plugin-roots.js';
import { isErrorCode } from '../../protocol/error-codes.js';
import { missingAdapter } from '../../host-api/capabilities.js';
import { chargeRequest } from '../api/common.js';
import { checkBucket, generatedPath, given, isOperationFailure, pathAttr, tenantFiles } from './common.js';
import declaration from '../../plugins/host-files/get_file.js';

export const MAX_GET_FILE_BYTES = 16 * 1024 * 1024;

const EGRESS_REFUSALS = new Set(['E_SSRF_DENIED', 'E_BAD_URL', 'E_HTTP_LIMIT']);

class NotGot extends Error {}

export const getFile = implement(declaration, async (attrs, call) => {
  const varName = String(attrs.var);
  checkBucket('get_file', attrs);
  if (given(attrs.path) === given(attrs.url))
    throw new BridgeError('E_BAD_COMBINATION', '{get_file} takes exactly one of path and url');
  const save = attrs.save !== false;
  const dest = save
    ? given(attrs.save_path)
      ? checkPluginPath('get_file', 'save_path', attrs.save_path)
      : generatedPath()
    : null;
  if (!save && given(attrs.save_path))
    throw new BridgeError('E_BAD_COMBINATION', '{get_file} save_path needs save=true');
  const files = tenantFiles(call, 'get_file');
  let data: Uint8Array;
  try {
    data = given(attrs.path) ? await fromStorage() : await fromUrl(String(attrs.url));
  } catch (e) {
    if (e instanceof NotGot || isOperationFailure(e))
      return { assign: [[varName, '']], log: [{ level: 'warning', message: `{get_file} ${e.message}` }] };
    throw e;
  }
  if (!dest) return { assign: [[varName, new TextDecoder('utf-8').decode(data)]] };
  await files.writeAtomic(dest, data);
  return { assign: [[varName, dest.text]] };

  async function fromStorage(): Promise<Uint8Array> {
    const p = pathAttr('get_file', 'path', attrs);
    const st = await files.stat(p);
    if (st.isDir) throw new FileError('E_FILE_FAILED', p.text, 'is a directory', { reason: 'is-directory' });
    if (st.size > MAX_GET_FILE_BYTES) throw tooLarge(p.text);
    const bytes = await files.read(p);
    if (bytes.length > MAX_GET_FILE_BYTES) throw tooLarge(p.text);
    return bytes;
  }

  async function fromUrl(url: string): Promise<Uint8Array> {
    if (!url.startsWith('https://'))
      throw new FileError('E_PATH_DENIED', url, 'url must be an https:// URL', {
        plugin: 'get_file',
        attr: 'url',
        reason: 'not-https',
      });
    const http = call.host.http;
    if (!http) throw missingAdapter('{get_file}', 'http');
    chargeRequest(call, 'get_file');
    let res;
    try {
      res = await http.fetch({ method: 'GET', url, maxResponseBytes: MAX_GET_FILE_BYTES });
    } catch (e) {
      const code = (e as { code?: unknown } | null)?.code;
      if (code === 'E_HTTP_LIMIT')
        throw new BridgeError('E_SIZE_LIMIT', `{get_file} the download is larger than ${MAX_GET_FILE_BYTES} bytes`);
      if (isErrorCode(code) && EGRESS_REFUSALS.has(code))
        throw new BridgeError(code, `{get_file} ${e instanceof Error ? e.message : 'refused'}`);
      if (e instanceof BridgeError) throw e;
      throw new NotGot(`the request failed${isErrorCode(code) ? ` (${code})` : ''}`);
    }
    if (res.status < 200 || res.status > 299) throw new NotGot(`the server answered ${res.status}`);
    return res.body;
  }
});

function tooLarge(path: string): FileError {
  return new FileError('E_SIZE_LIMIT', path, `larger than ${MAX_GET_FILE_BYTES} bytes`, {
    plugin: 'get_file',
    reason: 'get-file-limit',
  });
}

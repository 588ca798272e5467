/**
 * {storage_url var=u path="/files/g/..." expire="+167 hour"}: a signed, expiring read URL for a
 * cloud storage file, made the way HostAdapters.storageUrls says: an HMAC link to the embedder's
 * file server (URL shape: storage-url.ts) or the storage's own presigned URL (S3).
 *
 * Decisions:
 *  - path: cloud storage roots only (plugin-roots.ts).
 *  - expire: parsed with PHP's strtotime relative to the current time, in the site's time zone
 *    (Asia/Tokyo, the platform default: the bridge does not know the site's zone). Default
 *    '+167 hour'. It must lie in the future and at most 168 hours ahead (the longest validity
 *    object storage grants to a presigned URL, which is why the default is 167 hours):
 *    E_BAD_ATTRIBUTE otherwise, and for text strtotime cannot read.
 *  - The file must exist and be a file (docs/dialect.md, Files: chk_file_exists defaults to true):
 *    otherwise var receives null and a warning is logged.
 *  - var is needed (E_BAD_ATTRIBUTE without it). Without HostAdapters.storageUrls: E_PLUGIN_DENIED.
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { phpStrtotime } from '../../php/date/strtotime.js';
import { given, pathAttr, tenantFiles } from './common.js';
import { signStorageUrl } from './storage-url.js';
import { missingAdapter } from '../../host-api/capabilities.js';
import declaration from '../../plugins/host-files/storage_url.js';

const MAX_VALIDITY_SECONDS = 168 * 3600;
const DEFAULT_EXPIRE = '+167 hour';

export const storageUrl = implement(declaration, async (attrs, call) => {
  if (!given(attrs.var)) throw new BridgeError('E_BAD_ATTRIBUTE', '{storage_url} needs the attribute var');
  const varName = String(attrs.var);
  const p = pathAttr('storage_url', 'path', attrs);
  const urls = call.host.storageUrls;
  if (!urls) throw missingAdapter('{storage_url}', 'storageUrls');
  const now = Math.floor(Date.now() / 1000);
  const expireText = given(attrs.expire) ? String(attrs.expire) : DEFAULT_EXPIRE;
  // A wall time ("tomorrow 09:00") is read in the render's zone, the site's.
  const expires = phpStrtotime(expireText, now, call.render.timezone);
  if (expires === false)
    throw new BridgeError('E_BAD_ATTRIBUTE', `{storage_url} expire= is not a time strtotime can read`);
  if (expires <= now || expires - now > MAX_VALIDITY_SECONDS) {
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{storage_url} expire= must be in the future and at most ${MAX_VALIDITY_SECONDS / 3600} hours ahead`,
    );
  }
  const files = tenantFiles(call, 'storage_url');
  const st = await files.stat(p).catch((e: unknown) => {
    if (e instanceof Error && (e as { code?: string }).code === 'E_FILE_NOT_FOUND') return null;
    throw e;
  });
  if (!st || st.isDir)
    return { assign: [[varName, null]], log: [{ level: 'warning', message: `{storage_url} ${p.text}: no such file` }] };
  const tenant = call.identity.tenant;
  if ('presign' in urls) return { assign: [[varName, await urls.presign(p, expires)]] };
  const key = await urls.signingKey();
  if (!(key instanceof Uint8Array) || key.length < 16)
    throw new BridgeError('E_HOST_FAILED', '{storage_url} signing key is not configured');
  return { assign: [[varName, signStorageUrl(urls.baseUrl(), key, tenant, p, expires)]] };
});

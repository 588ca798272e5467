/**
 * Signed, expiring read URLs for storage files ({storage_url}), and their verification for the
 * embedder's file server.
 *
 * URL shape (version 1):
 *
 *   <baseUrl>/files/g/<seg>/<seg>?expires=<unix seconds>&signature=<base64url HMAC-SHA256>
 *
 *  - <baseUrl> and the key come from HostAdapters.storageUrls (per tenant); the key never enters
 *    the isolate.
 *  - The path is the canonical virtual path (NFC), each segment percent-encoded with
 *    encodeURIComponent.
 *  - The signature is HMAC-SHA256(key, "smartcage-storage-url-v1\n" + tenant + "\n" + path + "\n"
 *    + expires), path being the canonical virtual path text (not encoded), base64url without
 *    padding. The tenant is part of the message, so a link of one site never verifies for another
 *    even if two sites shared a key.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseVirtualPath, type VirtualPath } from '../../host-adapters/files/virtual-path.js';

const PREFIX = 'smartcage-storage-url-v1';

function storageUrlSignature(key: Uint8Array, tenant: string, path: string, expires: number): string {
  return createHmac('sha256', key).update(`${PREFIX}\n${tenant}\n${path}\n${expires}`).digest('base64url');
}

function encodeVirtualPath(p: VirtualPath): string {
  return p.root + p.segments.map((s) => '/' + encodeURIComponent(s)).join('');
}

export function signStorageUrl(
  baseUrl: string,
  key: Uint8Array,
  tenant: string,
  p: VirtualPath,
  expires: number,
): string {
  const base = baseUrl.replace(/\/+$/, '');
  return `${base}${encodeVirtualPath(p)}?expires=${expires}&signature=${storageUrlSignature(key, tenant, p.text, expires)}`;
}

/**
 * For the serving side: the virtual path a URL grants, or null when the URL is not a valid,
 * unexpired link of `tenant` under `baseUrl`. `now` in Unix seconds.
 */
export function verifyStorageUrl(
  url: string,
  baseUrl: string,
  key: Uint8Array,
  tenant: string,
  now = Math.floor(Date.now() / 1000),
): string | null {
  let u: URL;
  let b: URL;
  try {
    u = new URL(url);
    b = new URL(baseUrl.replace(/\/+$/, '') + '/');
  } catch {
    return null;
  }
  if (u.origin !== b.origin || !u.pathname.startsWith(b.pathname)) return null;
  const expires = u.searchParams.get('expires') ?? '';
  const signature = u.searchParams.get('signature') ?? '';
  if (!/^\d{1,12}$/.test(expires) || Number(expires) <= now) return null;
  let path: string;
  try {
    const rest = '/' + u.pathname.slice(b.pathname.length);
    path = parseVirtualPath(
      rest
        .split('/')
        .map((s) => decodeURIComponent(s))
        .join('/'),
    ).text;
  } catch {
    return null;
  }
  const want = Buffer.from(storageUrlSignature(key, tenant, path, Number(expires)));
  const got = Buffer.from(signature);
  return got.length === want.length && timingSafeEqual(got, want) ? path : null;
}

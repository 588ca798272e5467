/**
 * {rcms_encrypt}: AES-256-GCM under a key derived (HKDF-SHA256) from the tenant's site key and the
 * template's key. The ciphertext is `v1.` + base64url(iv | ciphertext | tag); the site key and the
 * derived key never reach the isolate. A key given as a secret handle is swapped for its value here.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { BridgeError } from '../../host-api/errors.js';
import { implement } from '../plugin-contract.js';
import { htmlspecialchars, ENT_QUOTES } from '../../php/string/html.js';
import { fromBytes } from '../../value/bytes.js';
import { wireBytes } from '../wire-bytes.js';
import declaration from '../../plugins/host-crypto/rcms_encrypt.js';

const PREFIX = 'v1.';

/**
 * The template's key is HKDF's `info`, which Node takes up to 1024 bytes: a longer key made
 * hkdfSync throw on the host, E_HOST_FAILED reported to the embedder as its own failure. It is
 * refused before deriving, without quoting it (it may be a secret's value) (D316, BR-19).
 */
const MAX_KEY_BYTES = 1024;

/**
 * HKDF salts: one for keys the template writes, one for keys holding a secret handle. With one
 * salt, a key equal to the secret's value derived the secret's AES key, so encrypting with a
 * guessed key and decrypting with the handle (or the other way round) told the template whether
 * it had guessed the value, up to a thousand guesses a render (D317, BR-21). Apart, they never meet.
 */
const PLAIN_SALT = Buffer.from('smartcage rcms_encrypt v1');
const SECRET_SALT = Buffer.from('smartcage rcms_encrypt v1, a key holding a secret');

function deriveKey(siteKey: Uint8Array, key: string, holdsSecret: boolean): Buffer {
  const info = wireBytes(key);
  if (info.length > MAX_KEY_BYTES)
    throw new BridgeError('E_BAD_ATTRIBUTE', `{rcms_encrypt} key= is longer than ${MAX_KEY_BYTES} bytes`);
  return Buffer.from(hkdfSync('sha256', siteKey, holdsSecret ? SECRET_SALT : PLAIN_SALT, info, 32));
}

export const rcmsEncrypt = implement(declaration, async (attrs, call, crypto) => {
  const written = String(attrs.key);
  const key = call.secrets.substitute(written, '{rcms_encrypt key}', () => true);
  const derived = deriveKey(await crypto.siteKey(), key, call.secrets.contains(written));
  let result: string | false;
  if (attrs.action === 'encrypt') {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', derived, iv);
    const body = Buffer.concat([cipher.update(wireBytes(String(attrs.data))), cipher.final()]);
    result = PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  } else {
    result = decrypt(String(attrs.data), derived);
    if (result !== false && attrs.sanitize !== false) result = htmlspecialchars(result, ENT_QUOTES, 'utf-8', true);
  }
  if (attrs.var === undefined || attrs.var === null) return { output: result === false ? '' : result };
  return { assign: [[String(attrs.var), result]] };
});

function decrypt(text: string, key: Buffer): string | false {
  if (!text.startsWith(PREFIX)) return false;
  const raw = Buffer.from(text.slice(PREFIX.length), 'base64url');
  if (raw.length < 12 + 16) return false;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    const plain = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
    return fromBytes(new Uint8Array(plain));
  } catch {
    return false; // another site key, another key, or tampered data
  }
}

/**
 * The secrets of a backup (secrets.json: integration tokens, SMTP passwords; data/site-key: the
 * HMAC/JWT and rcms_encrypt key) sealed with a key the operator holds, never the template: AES-256-GCM
 * (node:crypto), a fresh 96-bit IV per file, the 128-bit tag appended. The additional data binds
 * each sealed file to its site key and its name, so a sealed part cannot be moved into another
 * backup or swapped with its sibling. Without a key a backup leaves the secrets out (D156).
 *
 * The key is 32 bytes: `SMARTCAGE_BACKUP_KEY` (64 hex digits or base64) or a file named by
 * `SMARTCAGE_BACKUP_KEY_FILE` (`site restore --backup-key-file`) holding the raw bytes or the same text,
 * e.g. `openssl rand -hex 32 > backup.key`.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

const BACKUP_KEY_BYTES = 32;
/** "SCB1": a sealed file of a smartcage backup, version 1. */
const MAGIC = Buffer.from('SCB1');
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class BackupKeyError extends Error {}

/** A key from the text or bytes an operator keeps: 32 raw bytes, 64 hex digits or base64 of 32 bytes. */
export function parseBackupKey(data: Buffer | string, where: string): Buffer {
  const raw = typeof data === 'string' ? Buffer.from(data) : data;
  if (raw.length === BACKUP_KEY_BYTES) return Buffer.from(raw);
  const text = raw.toString('utf8').trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/]{43}=?$/.test(text)) {
    const b = Buffer.from(text, 'base64');
    if (b.length === BACKUP_KEY_BYTES) return b;
  }
  throw new BackupKeyError(`${where} is not a backup key: 32 bytes, as 64 hex digits or base64 (openssl rand -hex 32)`);
}

/** The key a file holds. */
export function readBackupKeyFile(file: string): Buffer {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    throw new BackupKeyError(`${file}: cannot read the backup key file`);
  }
  return parseBackupKey(data, file);
}

/** The operator's backup key from the environment (SMARTCAGE_BACKUP_KEY, or SMARTCAGE_BACKUP_KEY_FILE); null when neither is set. */
export function backupKeyFromEnv(env: NodeJS.ProcessEnv = process.env): Buffer | null {
  const text = env.SMARTCAGE_BACKUP_KEY;
  if (text) return parseBackupKey(text, 'SMARTCAGE_BACKUP_KEY');
  const file = env.SMARTCAGE_BACKUP_KEY_FILE;
  return file ? readBackupKeyFile(file) : null;
}

const aad = (siteKey: string, name: string): Buffer => Buffer.from(`smartcage-backup\0${siteKey}\0${name}`);

/** `plain` sealed for file `name` of site `siteKey`. */
export function seal(key: Buffer, siteKey: string, name: string, plain: Uint8Array): Buffer {
  const iv = randomBytes(IV_BYTES);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(aad(siteKey, name));
  const body = Buffer.concat([c.update(plain), c.final()]);
  return Buffer.concat([MAGIC, iv, body, c.getAuthTag()]);
}

/** The plain bytes of a sealed file, or null when the key (or the site key, or the name) is not the one it was sealed with. */
export function unseal(key: Buffer, siteKey: string, name: string, sealed: Buffer): Buffer | null {
  if (sealed.length < MAGIC.length + IV_BYTES + TAG_BYTES || !sealed.subarray(0, MAGIC.length).equals(MAGIC))
    return null;
  const iv = sealed.subarray(MAGIC.length, MAGIC.length + IV_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  const d = createDecipheriv('aes-256-gcm', key, iv);
  d.setAAD(aad(siteKey, name));
  d.setAuthTag(tag);
  try {
    return Buffer.concat([d.update(sealed.subarray(MAGIC.length + IV_BYTES, sealed.length - TAG_BYTES)), d.final()]);
  } catch {
    return null;
  }
}

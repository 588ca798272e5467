/** What the session and api adapters of a site share: how ids and tokens are made and stored, and their clock. */
import { createHash, randomBytes } from 'node:crypto';

/** How ids and tokens are stored: their SHA-256, so the database lets nobody act as anyone. */
export function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A new id or token: 256 random bits, URL- and cookie-safe. */
export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** Sessions and tokens expire by the real clock, not a render's (which tests may fix). */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

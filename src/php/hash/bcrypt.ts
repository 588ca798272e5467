/**
 * bcrypt as PHP's crypt() computes it (crypt_blowfish by Solar Designer): `$2y$`, `$2b$`,
 * `$2a$` (with its safety tweak for 8-bit passwords) and `$2x$` (the old sign-extension bug).
 * The password is a C string: it ends at its first NUL byte, and only 72 bytes count.
 */
import { toBytes } from '../../value/bytes.js';
import { P_INIT, S_INIT } from './blowfish-tables.js';

const ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const MAGIC = 'OrpheanBeholderScryDoubt';

export const BCRYPT_MIN_COST = 4;
export const BCRYPT_MAX_COST = 31;

/** bcrypt's own base64: its alphabet, no padding. */
export function bcryptBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i];
    const b1 = i + 1 < bytes.length ? bytes[i + 1] : -1;
    const b2 = i + 2 < bytes.length ? bytes[i + 2] : -1;
    out += ALPHABET[b0 >> 2];
    if (b1 < 0) {
      out += ALPHABET[(b0 & 3) << 4];
      break;
    }
    out += ALPHABET[((b0 & 3) << 4) | (b1 >> 4)];
    if (b2 < 0) {
      out += ALPHABET[(b1 & 15) << 2];
      break;
    }
    out += ALPHABET[((b1 & 15) << 2) | (b2 >> 6)] + ALPHABET[b2 & 63];
  }
  return out;
}

/** Decodes `count` bytes; null on a character outside the alphabet. */
function decodeBase64(text: string, count: number): Uint8Array | null {
  const sextets: number[] = [];
  for (const ch of text) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) return null;
    sextets.push(v);
  }
  const out = new Uint8Array(count);
  let bits = 0;
  let acc = 0;
  let j = 0;
  for (const s of sextets) {
    acc = (acc << 6) | s;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      if (j < count) out[j++] = (acc >> bits) & 0xff;
    }
  }
  return j === count ? out : null;
}

class Blowfish {
  readonly P = Int32Array.from(P_INIT);
  readonly S = Int32Array.from(S_INIT);
  L = 0;
  R = 0;

  /** Encrypts the block (L, R) in place. */
  encrypt(): void {
    const { P, S } = this;
    let l = this.L ^ P[0];
    let r = this.R;
    for (let i = 1; i <= 16; i += 2) {
      r ^= (((S[l >>> 24] + S[256 | ((l >>> 16) & 0xff)]) ^ S[512 | ((l >>> 8) & 0xff)]) + S[768 | (l & 0xff)]) ^ P[i];
      l ^=
        (((S[r >>> 24] + S[256 | ((r >>> 16) & 0xff)]) ^ S[512 | ((r >>> 8) & 0xff)]) + S[768 | (r & 0xff)]) ^ P[i + 1];
    }
    this.L = r ^ P[17];
    this.R = l;
  }

  /** Re-keys P and then S by encrypting a running block, xored with `salt` words in turn if given. */
  expand(salt: Int32Array | null): void {
    this.L = 0;
    this.R = 0;
    let k = 0;
    const fill = (table: Int32Array) => {
      for (let i = 0; i < table.length; i += 2) {
        if (salt) {
          this.L ^= salt[k & 3];
          this.R ^= salt[(k + 1) & 3];
          k += 2;
        }
        this.encrypt();
        table[i] = this.L;
        table[i + 1] = this.R;
      }
    };
    fill(this.P);
    fill(this.S);
  }
}

/** The 18 key words (the password cycled with its NUL), and the `$2a$` safety bit. */
function keyWords(password: Uint8Array, variant: string): { words: Int32Array; safetyXor: number } {
  const nul = password.indexOf(0);
  const key = password.subarray(0, nul < 0 ? Math.min(password.length, 72) : Math.min(nul, 72));
  const bug = variant === 'x';
  const words = new Int32Array(18);
  let pos = 0;
  let sign = 0;
  let diff = 0;
  for (let i = 0; i < 18; i++) {
    let correct = 0;
    let buggy = 0;
    for (let j = 0; j < 4; j++) {
      const byte = pos < key.length ? key[pos] : 0;
      correct = (correct << 8) | byte;
      buggy = (buggy << 8) | (byte >= 0x80 ? byte - 0x100 : byte); // sign extension, as in $2x$
      if (j) sign |= buggy & 0x80;
      pos = pos < key.length ? pos + 1 : 0;
    }
    diff |= correct ^ buggy;
    words[i] = bug ? buggy : correct;
  }
  diff |= diff >>> 16;
  diff &= 0xffff;
  diff += 0xffff;
  const safety = variant === 'a' ? 0x10000 : 0;
  return { words, safetyXor: (sign << 9) & ~diff & safety };
}

function bigEndianWords(bytes: Uint8Array): Int32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Int32Array.from({ length: bytes.length >> 2 }, (_, i) => view.getInt32(i * 4));
}

/** The raw 23-byte bcrypt digest. */
function digest(password: Uint8Array, salt: Uint8Array, cost: number, variant: string): Uint8Array {
  const { words, safetyXor } = keyWords(password, variant);
  const saltWords = bigEndianWords(salt);
  const bf = new Blowfish();
  for (let i = 0; i < 18; i++) bf.P[i] ^= words[i];
  bf.P[0] ^= safetyXor;
  bf.expand(saltWords);
  for (let round = 2 ** cost; round > 0; round--) {
    for (let i = 0; i < 18; i++) bf.P[i] ^= words[i];
    bf.expand(null);
    for (let i = 0; i < 18; i++) bf.P[i] ^= saltWords[i & 3];
    bf.expand(null);
  }
  const text = bigEndianWords(Uint8Array.from(MAGIC, (c) => c.charCodeAt(0)));
  const out = new Uint8Array(24);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 6; i += 2) {
    bf.L = text[i];
    bf.R = text[i + 1];
    for (let n = 0; n < 64; n++) bf.encrypt();
    view.setInt32(i * 4, bf.L);
    view.setInt32(i * 4 + 4, bf.R);
  }
  return out.subarray(0, 23);
}

export interface BcryptSetting {
  variant: string;
  cost: number;
  salt: Uint8Array;
}

/** Reads `$2y$10$<22 salt chars>` from the start of a hash; null when it is not a bcrypt setting. */
export function parseSetting(hash: string): BcryptSetting | null {
  const m = /^\$2([abxy])\$(\d\d)\$([./A-Za-z0-9]{22})/.exec(hash);
  if (!m) return null;
  const cost = Number(m[2]);
  if (cost < BCRYPT_MIN_COST || cost > BCRYPT_MAX_COST) return null;
  const salt = decodeBase64(m[3], 16);
  return salt && { variant: m[1], cost, salt };
}

/** crypt(password, setting) for bcrypt: the 60-character hash. */
export function bcrypt(password: string, s: BcryptSetting): string {
  const head = `$2${s.variant}$${String(s.cost).padStart(2, '0')}$`;
  return head + bcryptBase64(s.salt) + bcryptBase64(digest(toBytes(password), s.salt, s.cost, s.variant));
}

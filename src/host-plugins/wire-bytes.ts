/**
 * A template string's bytes as the host sends or stores them. `toBytes` (value/bytes.ts) is the
 * isolate's codec, written out because an isolate has no TextEncoder; on the host it cost ~11 ms
 * per MB, so a render posting 100 bodies of 1 MB through `{api}` held the embedder's thread for
 * 1.5 s, more than the template's own CPU limit (security.md MEM-13). A well-formed string (no
 * lone surrogate, so none of the escaped stray bytes `toBytes` restores) has the same UTF-8 bytes
 * from Node's encoder, in a fraction of the time; only the others take the long way.
 */
import { toBytes } from '../value/bytes.js';

export function wireBytes(s: string): Buffer {
  return s.isWellFormed() ? Buffer.from(s, 'utf8') : Buffer.from(toBytes(s));
}

/**
 * Encoders for the legacy Japanese encodings of zip entry names (cp932 and EUC-JP), for tests:
 * Node decodes them (TextDecoder) but cannot encode them, so the table is the decoder's inverse,
 * built over every two-byte sequence once.
 */
import { TextDecoder } from 'node:util';

type Table = Map<string, number[]>;
const tables = new Map<string, Table>();

function table(label: 'shift_jis' | 'euc-jp'): Table {
  let t = tables.get(label);
  if (t) return t;
  t = new Map();
  const d = new TextDecoder(label, { fatal: true });
  const leads = label === 'shift_jis' ? [...range(0x81, 0x9f), ...range(0xe0, 0xfc)] : range(0xa1, 0xfe);
  const trails = label === 'shift_jis' ? [...range(0x40, 0x7e), ...range(0x80, 0xfc)] : range(0xa1, 0xfe);
  for (const a of leads) {
    for (const b of trails) {
      let s: string;
      try {
        s = d.decode(Uint8Array.of(a, b));
      } catch {
        continue;
      }
      if ([...s].length === 1 && !t.has(s)) t.set(s, [a, b]);
    }
  }
  tables.set(label, t);
  return t;
}

function range(a: number, b: number): number[] {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}

/** `text` in the encoding; ASCII as itself, anything the table lacks is an error. */
export function encodeLegacy(text: string, label: 'shift_jis' | 'euc-jp'): Uint8Array {
  const t = table(label);
  const out: number[] = [];
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) out.push(ch.charCodeAt(0));
    else {
      const bytes = t.get(ch);
      if (!bytes) throw new Error(`${JSON.stringify(ch)} has no ${label} form`);
      out.push(...bytes);
    }
  }
  return Uint8Array.from(out);
}

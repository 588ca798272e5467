/**
 * PHP 8.2's mb_convert_kana on UTF-8 text: mb_convert_kana_codepoint (libmbfl
 * mbfilter_cp5022x.c) applied to each code point, with the next code point for "V"
 * (a halfwidth kana and its sound mark become one fullwidth kana). Bytes that are not
 * valid UTF-8 come out as "?", as PHP's substitution character.
 */
import { toBinary } from '../../value/bytes.js';
import * as M from './mode.js';
import { HANKANA2ZENHIRA, HANKANA2ZENKANA, ZENKANA2HANKANA } from './tables.js';

const BAD = -1;

/** UTF-8 decoding as mbstring 8.2 does it: one error per maximal invalid subsequence. */
function decode(bin: string): number[] {
  const out: number[] = [];
  const at = (i: number) => (i < bin.length ? bin.charCodeAt(i) : -1);
  for (let i = 0; i < bin.length;) {
    const c = at(i);
    if (c < 0x80) {
      out.push(c);
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else {
      out.push(BAD);
      i++;
      continue;
    }
    let cp = c & (0x3f >> need);
    let j = 1;
    for (; j <= need; j++) {
      const t = at(i + j);
      const [min, max] = j === 1 ? [lo, hi] : [0x80, 0xbf];
      if (t < min || t > max) break;
      cp = (cp << 6) | (t & 0x3f);
    }
    if (j <= need) {
      out.push(BAD);
      i += j;
    } else {
      out.push(cp);
      i += need + 1;
    }
  }
  return out;
}

function hanKanaToZen(c: number, next: number, mode: number): { cp: number; consumed: boolean } | null {
  if (c < 0xff61 || c > 0xff9f) return null;
  const n = c - 0xff60;
  const katakana = (mode & M.HAN2ZEN_KATAKANA) !== 0;
  const table = katakana ? HANKANA2ZENKANA : HANKANA2ZENHIRA;
  if (mode & M.HAN2ZEN_GLUE) {
    const voicable = (n >= 22 && n <= 36) || (n >= 42 && n <= 46);
    if (next === 0xff9e && voicable) return { cp: 0x3001 + table[n], consumed: true };
    if (katakana && next === 0xff9e && n === 19) return { cp: 0x30f4, consumed: true }; // ｳﾞ -> ヴ
    if (next === 0xff9f && n >= 42 && n <= 46) return { cp: 0x3002 + table[n], consumed: true };
  }
  return { cp: 0x3000 + table[n], consumed: false };
}

const ZEN_PUNCT_TO_HAN: Record<number, number> = {
  0x3001: 0xff64,
  0x3002: 0xff61,
  0x300c: 0xff62,
  0x300d: 0xff63,
  0x309b: 0xff9e,
  0x309c: 0xff9f,
  0x30fc: 0xff70,
  0x30fb: 0xff65,
};

/** mb_convert_kana_codepoint: the converted code point(s) and whether `next` was used up. */
function convertCodepoint(c: number, next: number, mode: number): { out: number[]; consumed: boolean } {
  const one = (cp: number) => ({ out: [cp], consumed: false });
  if (mode & M.HAN2ZEN_ALL && c >= 0x21 && c <= 0x7d && c !== 0x22 && c !== 0x27 && c !== 0x5c) return one(c + 0xfee0);
  if (mode & M.HAN2ZEN_ALPHA && ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a))) return one(c + 0xfee0);
  if (mode & M.HAN2ZEN_NUMERIC && c >= 0x30 && c <= 0x39) return one(c + 0xfee0);
  if (mode & M.HAN2ZEN_SPACE && c === 0x20) return one(0x3000);
  if (mode & (M.HAN2ZEN_KATAKANA | M.HAN2ZEN_HIRAGANA)) {
    const r = hanKanaToZen(c, next, mode);
    if (r) return { out: [r.cp], consumed: r.consumed };
  }
  if (mode & M.HAN2ZEN_SPECIAL) {
    if (c === 0x5c || c === 0xa5) return one(0xffe5);
    if (c === 0x7e || c === 0x203e) return one(0xffe3);
    if (c === 0x27) return one(0x2019);
    if (c === 0x22) return one(0x201d);
  }
  if (mode & M.ZEN2HAN_ALL && c >= 0xff01 && c <= 0xff5d && c !== 0xff02 && c !== 0xff07 && c !== 0xff3c)
    return one(c - 0xfee0);
  if (mode & M.ZEN2HAN_ALPHA && ((c >= 0xff21 && c <= 0xff3a) || (c >= 0xff41 && c <= 0xff5a))) return one(c - 0xfee0);
  if (mode & M.ZEN2HAN_NUMERIC && c >= 0xff10 && c <= 0xff19) return one(c - 0xfee0);
  if (mode & M.ZEN2HAN_SPACE && c === 0x3000) return one(0x20);
  if (mode & M.ZEN2HAN_ALL && c === 0x2212) return one(0x2d); // MINUS SIGN
  if (mode & (M.ZEN2HAN_KATAKANA | M.ZEN2HAN_HIRAGANA)) {
    let n = -1;
    if (mode & M.ZEN2HAN_KATAKANA && c >= 0x30a1 && c <= 0x30f4) n = c - 0x30a1;
    else if (mode & M.ZEN2HAN_HIRAGANA && c >= 0x3041 && c <= 0x3093) n = c - 0x3041;
    if (n >= 0) {
      const [first, mark] = ZENKANA2HANKANA[n];
      return { out: mark ? [0xff00 + first, 0xff00 + mark] : [0xff00 + first], consumed: false };
    }
    const punct = ZEN_PUNCT_TO_HAN[c];
    if (punct !== undefined) return one(punct);
  }
  if (mode & M.ZENKAKU_HIRA2KATA && ((c >= 0x3041 && c <= 0x3093) || c === 0x309d || c === 0x309e))
    return one(c + 0x60);
  if (mode & M.ZENKAKU_KATA2HIRA && ((c >= 0x30a1 && c <= 0x30f3) || c === 0x30fd || c === 0x30fe))
    return one(c - 0x60);
  if (mode & M.ZEN2HAN_SPECIAL) {
    if (c === 0xffe5 || c === 0xff3c) return one(0x5c);
    if (c === 0xffe3 || c === 0x203e) return one(0x7e);
    if (c === 0x2018 || c === 0x2019) return one(0x27);
    if (c === 0x201c || c === 0x201d) return one(0x22);
  }
  return one(c);
}

export function convertKana(s: string, mode: number): string {
  return s.isWellFormed() ? convertWellFormed(s, mode) : convertDecoded(s, mode);
}

/**
 * Well-formed text has no bad bytes: its code points are read in place, and the runs that do
 * not change are copied as slices. A string built a code point at a time was ~30 µs for 300
 * characters inside an isolate.
 */
function convertWellFormed(s: string, mode: number): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < s.length;) {
    const c = s.codePointAt(i)!;
    const after = i + (c > 0xffff ? 2 : 1);
    const next = after < s.length ? s.codePointAt(after)! : 0;
    const r = convertCodepoint(c, next, mode);
    if (!r.consumed && r.out.length === 1 && r.out[0] === c) {
      i = after;
      continue;
    }
    out += s.slice(last, i) + String.fromCodePoint(...r.out);
    i = r.consumed ? after + (next > 0xffff ? 2 : 1) : after;
    last = i;
  }
  return last === 0 ? s : out + s.slice(last);
}

function convertDecoded(s: string, mode: number): string {
  const cps = decode(toBinary(s));
  let out = '';
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    if (c === BAD) {
      out += '?';
      continue;
    }
    const next = i + 1 < cps.length && cps[i + 1] !== BAD ? cps[i + 1] : 0;
    const r = convertCodepoint(c, next, mode);
    out += String.fromCodePoint(...r.out);
    if (r.consumed) i++;
  }
  return out;
}

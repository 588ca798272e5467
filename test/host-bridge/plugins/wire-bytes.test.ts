/**
 * wireBytes (src/host-plugins/wire-bytes.ts): the bytes the isolate's codec gives, every time;
 * Node's encoder for the well-formed strings, the codec only for those it alone reads right.
 */
import { describe, expect, it } from 'vitest';
import { toBytes } from '../../../src/value/bytes.js';
import { wireBytes } from '../../../src/host-plugins/wire-bytes.js';

const same = (s: string) => expect([...wireBytes(s)]).toEqual([...toBytes(s)]);

describe('wireBytes', () => {
  it.each([
    ['empty', ''],
    ['ASCII', 'plain text\n'],
    ['two- and three-byte characters', 'café 日本語'],
    ['a surrogate pair', 'emoji \u{1f600} done'],
    ['U+FFFF and U+10FFFF', '\uffff\u{10ffff}'],
  ])('gives the codec bytes for %s', (_, s) => same(s));

  it.each([
    ['escaped stray bytes', 'a\udc80\udcffb'],
    ['a lone high surrogate', 'x\ud800'],
    ['a lone low surrogate', '\udfffy'],
  ])('gives the codec bytes for %s, which Node would replace', (_, s) => {
    same(s);
    expect([...wireBytes(s)]).not.toEqual([...Buffer.from(s, 'utf8')]);
  });

  it('takes a megabyte of text in one native encode', () => {
    const s = 'é'.repeat(1 << 20);
    const out = wireBytes(s);
    expect(out.length).toBe(2 << 20);
    expect(Buffer.isBuffer(out)).toBe(true);
  });
});

import { expect, it } from 'vitest';
import { compareCodePoints } from '../../src/text/code-point-order.js';

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const sign = (n: number) => Math.sign(n);

it('orders as the UTF-8 bytes do, astral characters after U+E000..U+FFFF', () => {
  const names = ['a', 'ab', '', 'b', 'é', '\uffff', '\ue000', '😀', '😀a', 'あ', 'z', 'A', '\u{10ffff}', '\ud7ff'];
  for (const a of names)
    for (const b of names)
      expect(sign(compareCodePoints(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(sign(byBytes(a, b)));
  expect(['😀', '\uffff'].sort()).toEqual(['😀', '\uffff']); // what plain sort would give
  expect(['😀', '\uffff'].sort(compareCodePoints)).toEqual(['\uffff', '😀']);
});

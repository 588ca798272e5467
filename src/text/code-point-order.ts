/**
 * Orders strings by code point, which is the byte order of their UTF-8 (the order `ls` and PHP's
 * sort of file names give), without encoding them: JavaScript's `<` compares UTF-16 units, which
 * puts an astral character (a surrogate pair, 0xD800..) before U+E000..U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Where they first differ, a surrogate stands for a code point above every BMP one.
    const hx = x >= 0xd800 && x <= 0xdfff;
    const hy = y >= 0xd800 && y <= 0xdfff;
    if (hx !== hy) return hx ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** strtr($string, $pairs): longest match first at each position, no re-scanning of output. */
export function strtr(s: string, pairs: Record<string, string>): string {
  const keys = Object.keys(pairs).filter((k) => k !== '').sort((a, b) => b.length - a.length);
  if (keys.length === 0) return s;
  let out = '';
  outer: for (let i = 0; i < s.length; ) {
    for (const k of keys) {
      if (s.startsWith(k, i)) {
        out += pairs[k];
        i += k.length;
        continue outer;
      }
    }
    out += s[i++];
  }
  return out;
}

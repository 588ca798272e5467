/**
 * Counts the matches of a global regular expression in a loop the CPU timeout can stop, without
 * the array `text.match(re)` or `text.split(re)` would build natively: for a template's
 * 16M-character string that is one uninterruptible call and up to 16M elements.
 */
export function countMatches(text: string, re: RegExp): number {
  if (!re.global) throw new Error('countMatches needs a global regular expression');
  re.lastIndex = 0;
  let n = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    n++;
    if (m[0] === '') re.lastIndex++;
  }
  return n;
}

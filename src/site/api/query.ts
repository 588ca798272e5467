/**
 * Query strings and form bodies as PHP reads them into $_GET / $_POST (parse_str): `a[]=1`
 * appends, `a[k]=1` nests, dots and spaces in the top-level name become `_`. Values stay strings.
 * Bounded like PHP's max_input_vars and max_input_nesting_level: what is past them is dropped.
 */
export const MAX_INPUT_VARS = 1000;
const MAX_NESTING = 16;

type Tree = Record<string, unknown>;

/** An own property whatever the key (`__proto__` included): the tree is data, not an object model. */
function put(o: Tree, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

function child(o: Tree, key: string): Tree {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (typeof v === 'object' && v !== null) return v as Tree;
  const made: Tree = {};
  put(o, key, made);
  return made;
}

/** The next index `[]` appends at: one past the largest integer key, as PHP does. */
function nextIndex(o: Tree): string {
  let next = 0;
  for (const k of Object.keys(o)) if (/^(0|[1-9]\d*)$/.test(k)) next = Math.max(next, Number(k) + 1);
  return String(next);
}

export function parseQuery(text: string): Tree {
  const out: Tree = {};
  let count = 0;
  for (const [name, value] of new URLSearchParams(text)) {
    if (++count > MAX_INPUT_VARS) break;
    const open = name.indexOf('[');
    const base = (open < 0 ? name : name.slice(0, open)).replace(/[ .]/g, '_');
    if (base === '') continue;
    const keys: string[] = [];
    let rest = open < 0 ? '' : name.slice(open);
    while (rest.startsWith('[') && keys.length < MAX_NESTING) {
      const close = rest.indexOf(']');
      if (close < 0) break;
      keys.push(rest.slice(1, close));
      rest = rest.slice(close + 1);
    }
    let target = out;
    let key = base;
    for (const k of keys) {
      target = child(target, key);
      key = k === '' ? nextIndex(target) : k;
    }
    put(target, key, value);
  }
  return out;
}

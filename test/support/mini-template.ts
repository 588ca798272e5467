/**
 * A tiny reader for the templates of the modifier examples and golden cases: text with
 * `{$var|mod:arg|@mod}` tags (variables with dotted keys, quoted strings, numbers,
 * true/false/null, $smarty.const.STR_PAD_*), Smarty 2's `@` rule, and `{if TAG}..{else}..{/if}`
 * with an optional `=== false`. Modifiers are applied by a callback, so that the same
 * template can be evaluated with our implementation and with PHP's.
 */
import { PhpArray, type Value } from '../../src/value/value.js';
import { toBool, toStr } from '../../src/value/convert.js';

export type Apply = (name: string, input: Value, args: Value[]) => Value;

const CONSTS: Record<string, Value> = { STR_PAD_LEFT: 0, STR_PAD_RIGHT: 1, STR_PAD_BOTH: 2 };

export class Unsupported extends Error {}

/** Reads one tag body `$x|a:1|@b` and evaluates it. */
function evalTag(src: string, vars: Record<string, Value>, applyMod: Apply, known: (name: string) => boolean): Value {
  let i = 0;
  const peek = () => src[i];
  const operand = (): Value => {
    const c = peek();
    if (c === '$') {
      const m = /^\$([A-Za-z_][\w.]*)/.exec(src.slice(i))!;
      i += m[0].length;
      const [head, ...path] = m[1].split('.');
      if (head === 'smarty') {
        if (path[0] !== 'const' || !(path[1] in CONSTS)) throw new Unsupported(m[0]);
        return CONSTS[path[1]];
      }
      let v: Value = vars[head] ?? null;
      for (const k of path) v = v instanceof PhpArray ? v.get(k) : null;
      return v;
    }
    if (c === "'" || c === '"') {
      let out = '';
      for (i++; src[i] !== c; i++) {
        if (i >= src.length) throw new Unsupported('unterminated string');
        if (src[i] === '\\' && c === "'" && (src[i + 1] === "'" || src[i + 1] === '\\')) out += src[++i];
        else if (src[i] === '\\' && c === '"') {
          const e = src[++i];
          out +=
            e === 'n'
              ? '\n'
              : e === 't'
                ? '\t'
                : e === 'r'
                  ? '\r'
                  : e === '"' || e === '\\' || e === '$'
                    ? e
                    : '\\' + e;
        } else out += src[i];
      }
      i++;
      return out;
    }
    const m = /^-?\d+(\.\d+)?|^(true|false|null)\b/.exec(src.slice(i));
    if (!m) throw new Unsupported(src.slice(i));
    i += m[0].length;
    return m[2] ? (m[2] === 'null' ? null : m[2] === 'true') : Number(m[0]);
  };
  let value = operand();
  while (i < src.length) {
    if (peek() !== '|') throw new Unsupported(src.slice(i));
    i++;
    const whole = peek() === '@';
    if (whole) i++;
    const name = /^\w+/.exec(src.slice(i))![0];
    i += name.length;
    if (!known(name)) throw new Unsupported(name);
    const args: Value[] = [];
    while (peek() === ':') {
      i++;
      args.push(operand());
    }
    const apply = (v: Value) => applyMod(name, v, args);
    value =
      !whole && value instanceof PhpArray
        ? PhpArray.fromEntries(value.entries().map(([k, v]) => [k, apply(v)]))
        : apply(value);
  }
  return value;
}

export function render(
  template: string,
  vars: Record<string, Value>,
  apply: Apply,
  known: (name: string) => boolean,
): string {
  const tag = (body: string) => {
    if (!body.startsWith('$') && !/^['"\d]/.test(body)) throw new Unsupported(body);
    return evalTag(body, vars, apply, known);
  };
  const withIfs = template.replace(
    /\{if ([^{}]*)\}(.*?)(?:\{else\}(.*?))?\{\/if\}/gs,
    (_, cond: string, yes: string, no = '') => {
      const m = /^(.*?)\s*===\s*false$/.exec(cond);
      const ok = m ? tag(m[1]) === false : toBool(tag(cond));
      return ok ? yes : no;
    },
  );
  return withIfs.replace(/\{([^{}]*)\}/g, (_, body: string) => toStr(tag(body)));
}

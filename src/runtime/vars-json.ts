/**
 * JSON text to template values the way PHP's json_decode($text, true) reads it: object keys
 * keep their order ("2" after "b" stays after it, which JSON.parse cannot do), numbers with a
 * fraction or exponent are floats, integers stay exact ints up to 64 bits (a bigint past 2^53)
 * and become floats beyond.
 */
import { PhpArray, PhpObject, float, type Value } from '../value/value.js';
import { intOfDecimal } from '../value/int64.js';

class JsonSyntaxError extends Error {}

/** Top-level object of variables, in order. */
export function parseVarsJson(text: string, objects: boolean): Map<string, Value> {
  const v = parseJsonValue(text, objects);
  const out = new Map<string, Value>();
  if (v instanceof PhpArray) for (const [k, x] of v.entries()) out.set(String(k), x);
  else if (v instanceof PhpObject) for (const [k, x] of v.props) out.set(k, x);
  else throw new JsonSyntaxError('variables must be a JSON object');
  return out;
}

export function parseJsonValue(text: string, objects = false, maxDepth = 512): Value {
  let i = 0;
  const fail = (what: string): never => {
    throw new JsonSyntaxError(`${what} at offset ${i}`);
  };
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else break;
    }
  };
  const value = (depth: number): Value => {
    if (depth > maxDepth) fail('nesting too deep');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const entries: [string, Value][] = [];
      ws();
      if (text[i] === '}') {
        i++;
      } else {
        for (;;) {
          ws();
          if (text[i] !== '"') fail('expected a key');
          const k = string();
          ws();
          if (text[i] !== ':') fail('expected ":"');
          i++;
          entries.push([k, value(depth + 1)]);
          ws();
          if (text[i] === ',') {
            i++;
            continue;
          }
          if (text[i] === '}') {
            i++;
            break;
          }
          fail('expected "," or "}"');
        }
      }
      if (objects) {
        const o = new PhpObject();
        for (const [k, v] of entries) o.set(k, v);
        return o;
      }
      return PhpArray.fromEntries(entries);
    }
    if (c === '[') {
      i++;
      const items: Value[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return PhpArray.fromList(items);
      }
      for (;;) {
        items.push(value(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return PhpArray.fromList(items);
        }
        fail('expected "," or "]"');
      }
    }
    if (c === '"') return string();
    if (text.startsWith('true', i)) {
      i += 4;
      return true;
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return false;
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return null;
    }
    const m = /^-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m) return fail('unexpected character');
    i += m[0].length;
    const n = Number(m[0]);
    if (m[1] || m[2]) return float(n);
    return intOfDecimal(m[0]) ?? float(n);
  };
  const string = (): string => {
    i++; // opening quote
    let out = '';
    let start = i;
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c < 0x20) fail('control character in string');
      if (c === 0x5c) {
        out += text.slice(start, i);
        const e = text[i + 1];
        const simple: Record<string, string> = {
          '"': '"',
          '\\': '\\',
          '/': '/',
          b: '\b',
          f: '\f',
          n: '\n',
          r: '\r',
          t: '\t',
        };
        if (e in simple) {
          out += simple[e];
          i += 2;
        } else if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else fail('bad escape');
        start = i;
        continue;
      }
      i++;
    }
  };
  const v = value(0);
  ws();
  if (i !== text.length) fail('unexpected text after the value');
  return v;
}

/**
 * Helpers for comparing our functions with php: values travel to PHP as serialize() text
 * (exact bytes, key order, int/float), and a case is one `__eval` of PHP code on `$args`.
 */
import { PhpArray, PhpFloat, PhpObject, type Value } from '../../src/value/value.js';
import { toBytes } from '../../src/value/bytes.js';
import { phpFloatRepr, type OracleCall } from './php-oracle.js';
import type { ModifierContext, ModifierPlugin } from '../../src/plugins/types.js';
import { testModifierContext } from './plugin-context.js';

function ser(v: Value, out: Buffer[]): void {
  const s = (x: string): void => void out.push(Buffer.from(x, 'latin1'));
  if (v === null || v === undefined) return s('N;');
  if (typeof v === 'boolean') return s(`b:${v ? 1 : 0};`);
  if ((typeof v === 'number' && Number.isSafeInteger(v)) || typeof v === 'bigint') return s(`i:${v};`);
  if (typeof v === 'number' || v instanceof PhpFloat) {
    const n = typeof v === 'number' ? v : v.value;
    return s(`d:${Number.isNaN(n) ? 'NAN' : !Number.isFinite(n) ? (n > 0 ? 'INF' : '-INF') : phpFloatRepr(n)};`);
  }
  if (typeof v === 'string') {
    const b = Buffer.from(toBytes(v));
    s(`s:${b.length}:"`);
    out.push(b);
    return s('";');
  }
  if (v instanceof PhpArray) {
    s(`a:${v.size}:{`);
    for (const [k, x] of v.entries()) {
      ser(k, out);
      ser(x, out);
    }
    return s('}');
  }
  if (v instanceof PhpObject) {
    s(`O:8:"stdClass":${v.props.size}:{`);
    for (const [k, x] of v.props) {
      ser(k, out);
      ser(x, out);
    }
    return s('}');
  }
}

/** PHP source that rebuilds `v` exactly. */
function phpLiteral(v: Value): string {
  const parts: Buffer[] = [];
  ser(v, parts);
  return `unserialize(base64_decode('${Buffer.concat(parts).toString('base64')}'))`;
}

/** An oracle call evaluating `body` with `$args` bound to our arguments. */
export function phpEval(args: Value[], body: string): OracleCall {
  return { fn: '__eval', args: [`$args = ${phpLiteral(PhpArray.fromList(args))}; ${body}`] };
}

const ctx: ModifierContext = testModifierContext();

/** Calls a modifier as the runtime would: declared defaults filled in for omitted trailing params. */
export function callModifier(p: ModifierPlugin, input: Value, ...args: Value[]): Value {
  const filled = [...args];
  p.params.forEach((param, i) => {
    if (filled[i] === undefined && 'default' in param) filled[i] = param.default as Value;
  });
  while (filled.length > 0 && filled[filled.length - 1] === undefined) filled.pop();
  return p.run(input, filled, ctx);
}

/** Builds an ordered PHP array from [key, value] pairs. */
export function assoc(...pairs: [string | number, Value][]): PhpArray {
  return PhpArray.fromEntries(pairs);
}

export function list(...values: Value[]): PhpArray {
  return PhpArray.fromList(values);
}

import { defineFunction } from '../types.js';
import type { Value } from '../../runtime/value.js';
import { isNumeric, toStr } from '../../runtime/convert.js';
import { phpSprintf } from '../../php/format/sprintf.js';
import { evaluate, MathError, parseEquation } from '../../php/math/expression.js';

const RESERVED = new Set(['equation', 'format', 'assign']);

export default defineFunction({
  kind: 'function',
  name: 'math',
  summary:
    'Computes an equation with PHP arithmetic (Smarty 2). Other attributes are the variables of the equation and must be numbers; `format` is a sprintf format; `assign` stores instead of printing.',
  attrs: {
    equation: { type: 'string', required: true },
    format: { type: 'string' },
    assign: { type: 'varname' },
  },
  extraAttrs: true,
  examples: [
    { template: '{math equation="x + y * 2" x=1 y=3}', output: '7' },
    { template: '{math equation="(a + b) / c" a=1 b=2 c=4 format="%.2f"}', output: '0.75' },
    { template: '{math equation="max(x, 10) - pi()" x=3 assign=r}{$r}', output: '6.8584073464102' },
  ],
  run(attrs, ctx) {
    const equation = toStr(attrs.equation);
    if (/[`$]/.test(equation)) {
      ctx.warn('math: the equation may not contain ` or $');
      return '';
    }
    const vars: Record<string, Value> = Object.create(null);
    for (const [k, v] of Object.entries(attrs)) {
      if (RESERVED.has(k)) continue;
      // Smarty 2: every variable must be a non-empty number, otherwise a warning and no output.
      if (v === null || v === undefined || v === '' || !isNumeric(v)) {
        ctx.warn(`math: parameter "${k}" is not a number`);
        return '';
      }
      vars[k] = typeof v === 'string' ? Number(v.trim()) : v;
    }
    let result: Value;
    try {
      result = evaluate(parseEquation(equation), vars, () => ctx.random());
    } catch (e) {
      if (e instanceof MathError) {
        ctx.warn(`math: ${e.message}`);
        return '';
      }
      throw e;
    }
    const text = attrs.format !== undefined && attrs.format !== null ? phpSprintf(toStr(attrs.format), [result]) : toStr(result);
    if (attrs.assign !== undefined && attrs.assign !== null) {
      ctx.assign(toStr(attrs.assign), attrs.format !== undefined && attrs.format !== null ? text : result);
      return '';
    }
    return text;
  },
});

import { defineFunction } from '../types.js';
import type { Value } from '../../value/value.js';
import { toBool, toStr } from '../../value/convert.js';
import { phpSprintf } from '../../php/format/sprintf.js';
import { checkEquation, evaluate } from '../../php/math/expression.js';

const RESERVED = new Set(['equation', 'format', 'assign']);

/** PHP's empty() on an attribute: Smarty 2 ignores a format or assign of '' or '0'. */
const given = (v: Value | undefined): v is Value => v !== undefined && toBool(v);

export default defineFunction({
  kind: 'function',
  name: 'math',
  summary:
    "Computes an equation as Smarty 2 does (PHP 8's operators, including `**`, `& | ^ ~ << >>` and comparisons, and abs ceil cos exp floor log log10 max min pi pow rand round sin sqrt srand tan, `(int)`). Other attributes are the variables of the equation and must be numeric; a numeric string stays a string until an operator converts it. `format` is a sprintf format; `assign` stores instead of printing. An equation Smarty 2 refuses is E_BAD_ATTRIBUTE.",
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
    const params: Record<string, Value> = Object.create(null);
    for (const [k, v] of Object.entries(attrs)) if (!RESERVED.has(k)) params[k] = v;
    const { tree, names } = checkEquation(toStr(attrs.equation), params);
    const result = evaluate(
      tree,
      names.map((k) => params[k]),
      () => ctx.random(),
    );
    const text = given(attrs.format) ? phpSprintf(toStr(attrs.format), [result]) : null;
    if (given(attrs.assign)) {
      ctx.assign(toStr(attrs.assign), text ?? result);
      return '';
    }
    return text ?? toStr(result);
  },
});

/** `$smarty.*`: the reserved variable, resolved at compile time where the name is literal. */
import type { Access, Var } from '../ast.js';
import { lit } from './builder.js';
import type { EmitContext } from './context.js';
import { compilePath } from './expr.js';

/** Request data the host provides; cookies and env are always null on the platform. */
const REQUEST = new Set(['get', 'post', 'request', 'session', 'server']);

/** Same meaning as RenderState.foreachProp, for a loop that is running (iteration >= 1). */
function foreachPropInLoop(state: string, prop: string): string | null {
  switch (prop) {
    case 'iteration':
      return `${state}.iteration`;
    case 'index':
      return `(${state}.iteration - 1)`;
    case 'total':
      return `${state}.total`;
    case 'first':
      return `(${state}.iteration === 1)`;
    case 'last':
      return `(${state}.iteration === ${state}.total)`;
    case 'show':
      return `(${state}.total > 0)`;
    default:
      return null;
  }
}

export function compileSmartyVar(v: Var, cx: EmitContext): string {
  const [first, ...rest] = v.path;
  const word = first && first.type === 'Key' && first.key.type === 'String' ? first.key.value : null;
  if (word === null) {
    cx.error('E_SMARTY_VAR', '$smarty needs a name after it, e.g. $smarty.now or $smarty.foreach.NAME.index', v);
    return 'null';
  }
  const literalName = (a: Access | undefined): string | null =>
    a && a.type === 'Key' && a.key.type === 'String' ? a.key.value : null;
  switch (word) {
    case 'foreach':
    case 'section': {
      const name = literalName(rest[0]);
      const prop = literalName(rest[1]);
      if (name === null || prop === null) {
        cx.error('E_SMARTY_VAR', `write $smarty.${word}.NAME.PROPERTY`, v);
        return 'null';
      }
      if (word === 'foreach') {
        // Inside its own loop a property is plain arithmetic on the loop state; elsewhere (after
        // the loop, in an include) it is read from the render state.
        const inner = [...cx.foreachLoops].reverse().find((l) => l.name === name);
        const direct = inner ? foreachPropInLoop(inner.state, prop) : null;
        if (direct) return compilePath(direct, rest.slice(2), cx);
      }
      const fn = word === 'foreach' ? 'foreachProp' : 'sectionProp';
      return compilePath(`$.${fn}(${lit(name)}, ${lit(prop)})`, rest.slice(2), cx);
    }
    case 'capture': {
      const name = literalName(rest[0]);
      if (name === null) return compilePath('$.captureArray()', rest, cx);
      return compilePath(`$.capture(${lit(name)})`, rest.slice(1), cx);
    }
    case 'const': {
      const name = literalName(rest[0]);
      if (name === null) {
        cx.error('E_SMARTY_VAR', 'write $smarty.const.NAME', v);
        return 'null';
      }
      return compilePath(`$.constant(${lit(name)})`, rest.slice(1), cx);
    }
    case 'now':
      return compilePath('$.now', rest, cx);
    case 'ldelim':
      return '"{"';
    case 'rdelim':
      return '"}"';
    case 'version':
      return '"2.6.33"';
    case 'template':
      return compilePath('$.templateName', rest, cx);
    case 'rcms_validate':
      return '$.validate';
    case 'cookies':
    case 'env':
    case 'config':
      return 'null';
    default:
      if (REQUEST.has(word)) return compilePath(`$.request(${lit(word)})`, rest, cx);
      cx.error('E_SMARTY_VAR', `$smarty.${word} does not exist`, v);
      return 'null';
  }
}

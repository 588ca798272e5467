/** `$smarty.*`: the reserved variable, resolved at compile time where the name is literal. */
import type { Access, Expr, Var } from '../ast.js';
import { normalizeKey } from '../../value/php-array.js';
import { lit } from './builder.js';
import type { EmitContext } from './context.js';
import type { StateMember } from './runtime-names.js';

/** What `$smarty.NAME...` stands for: `base`, then the accesses in `rest` still to apply to it. */
export interface SmartyVarBase {
  base: string;
  rest: Access[];
}

/** A value whose further accesses are dropped (an error's `null`, a constant). */
const only = (base: string): SmartyVarBase => ({ base, rest: [] });

/** Request data the host provides; cookies and env are always null on the platform. */
const REQUEST = new Set(['get', 'post', 'request', 'session', 'server']);

/**
 * Same meaning as RenderState.foreachProp, for a loop that is running. `first` is `<= 1`, as in
 * Smarty 2: after a same-named inner loop over nothing, the shared record says iteration 0.
 */
function foreachPropInLoop(state: string, prop: string): string | null {
  switch (prop) {
    case 'iteration':
      return `${state}.iteration`;
    case 'index':
      return `(${state}.iteration - 1)`;
    case 'total':
      return `${state}.total`;
    case 'first':
      return `(${state}.iteration <= 1)`;
    case 'last':
      return `(${state}.iteration === ${state}.total)`;
    case 'show':
      return `(${state}.total > 0)`;
    default:
      return null;
  }
}

/**
 * A loop's name written after `$smarty.foreach.` or `$smarty.section.`: Smarty 2 writes a word of
 * digits into the PHP as a number, so `01` is the loop 1 and `010` the loop 8 (PHP's octal), as
 * `{foreach name=010}` names it; `08` is a number PHP cannot read.
 */
function loopNameWord(word: string | null, cx: EmitContext, v: Var): string | null {
  if (word === null) return word;
  // A word PHP reads as a number (is_numeric) is a number too: `1e3` is the float 1000, the loop
  // 1000; an integer past 64 bits is a float, whose key PHP wraps (`name=1e3` is the same loop).
  if (/^[0-9]+[eE][0-9]+$|^[1-9][0-9]{18,}$/.test(word)) {
    const key = normalizeKey(word);
    return String(typeof key === 'string' ? normalizeKey(Number(word)) : key);
  }
  if (!/^0[0-9]+$/.test(word)) return word;
  if (/[89]/.test(word)) {
    cx.error('E_SYNTAX', `${word} is not a number PHP can read: a leading 0 makes it octal (digits 0-7)`, v);
    return word;
  }
  return String(parseInt(word, 8));
}

/**
 * The base only: compileVar (expr.ts) applies the rest of the path, so that keys written after
 * `$smarty.foreach.NAME.PROP` compile like any other and this file needs nothing from expr.ts.
 */
export function smartyVarBase(v: Var, cx: EmitContext, expr: (e: Expr) => string): SmartyVarBase {
  const [first, ...rest] = v.path;
  const word = first && first.type === 'Key' && first.key.type === 'String' ? first.key.value : null;
  if (word === null) {
    cx.error('E_SMARTY_VAR', '$smarty needs a name after it, e.g. $smarty.now or $smarty.foreach.NAME.index', v);
    return only('null');
  }
  const literalName = (a: Access | undefined): string | null =>
    a && a.type === 'Key' && a.key.type === 'String' ? a.key.value : null;
  switch (word) {
    case 'foreach':
    case 'section': {
      // Bare `$smarty.foreach` is null in Smarty 2, not its table of loops.
      if (rest.length === 0) return only('null');
      const name = loopNameWord(literalName(rest[0]), cx, v);
      if (name === null) {
        // A variable naming the loop (`$smarty.foreach.$name.iteration`, after a dot only): Smarty
        // 2 reads the record of whatever loop the value names, as a key of its table of loops.
        const at = rest[0];
        if (at?.type !== 'Key' || at.key.type !== 'Var' || cx.src.text[at.start] !== '.') {
          cx.error('E_SMARTY_VAR', `write $smarty.${word}.NAME.PROPERTY`, v);
          return only('null');
        }
        const named = expr(at.key);
        const prop = literalName(rest[1]);
        if (prop === null) {
          const fn: StateMember = word === 'foreach' ? 'foreachRecord' : 'sectionRecord';
          return { base: `$.${fn}(${named})`, rest: rest.slice(1) };
        }
        const fn: StateMember = word === 'foreach' ? 'foreachProp' : 'sectionProp';
        return { base: `$.${fn}(${named}, ${lit(prop)})`, rest: rest.slice(2) };
      }
      const prop = literalName(rest[1]);
      if (prop === null) {
        // The loop's whole record (tests such as `{if $smarty.foreach.NAME}`), or a key taken from it.
        const fn: StateMember = word === 'foreach' ? 'foreachRecord' : 'sectionRecord';
        return { base: `$.${fn}(${lit(name)})`, rest: rest.slice(1) };
      }
      if (word === 'foreach') {
        // Inside its own loop a property is plain arithmetic on the loop state; elsewhere (after
        // the loop, in an include) it is read from the render state.
        const inner = [...cx.foreachLoops].reverse().find((l) => l.name === name);
        const direct = inner ? foreachPropInLoop(inner.state, prop) : null;
        if (direct) return { base: direct, rest: rest.slice(2) };
      } else {
        // Inside the section's own body its state variable is the record sectionProp finds by name
        // (EmitContext.sectionLoops). Its index is null exactly when its iteration is, which is
        // when sectionProp answers null; the other properties are sectionProp's rules on it.
        const inner = cx.sectionLoops.findLast((l) => l.name === name);
        if (inner && prop === 'index') return { base: `${inner.state}.index`, rest: rest.slice(2) };
        if (inner) return { base: `$.sectionPropOf(${inner.state}, ${lit(prop)})`, rest: rest.slice(2) };
      }
      const fn: StateMember = word === 'foreach' ? 'foreachProp' : 'sectionProp';
      return { base: `$.${fn}(${lit(name)}, ${lit(prop)})`, rest: rest.slice(2) };
    }
    case 'capture': {
      const name = literalName(rest[0]);
      if (name === null) return { base: '$.captureArray()', rest };
      return { base: `$.capture(${lit(name)})`, rest: rest.slice(1) };
    }
    case 'const': {
      const name = literalName(rest[0]);
      if (name === null) {
        cx.error('E_SMARTY_VAR', 'write $smarty.const.NAME', v);
        return only('null');
      }
      return { base: `$.constant(${lit(name)})`, rest: rest.slice(1) };
    }
    case 'now':
      return { base: '$.now', rest };
    case 'ldelim':
      return only('"{"');
    case 'rdelim':
      return only('"}"');
    case 'version':
      return only('"2.6.33"');
    case 'template':
      return { base: cx.includedName === null ? '$.templateName' : lit(cx.includedName), rest };
    case 'rcms_validate':
      return only('$.validate');
    case 'cookies':
    case 'env':
    case 'config':
      return only('null');
    default:
      if (REQUEST.has(word)) return { base: `$.request(${lit(word)})`, rest };
      cx.error('E_SMARTY_VAR', `$smarty.${word} does not exist`, v);
      return only('null');
  }
}

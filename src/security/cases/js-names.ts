/**
 * The fourth review's attacks on JavaScript names (docs/security.md CG-19, IS-15): a name of
 * Object.prototype (`constructor`, `toString`, `__proto__`...) given where a plugin looks a name
 * up in a table of its own, or used as a key of template data that crosses the runtime, the
 * bridge and the embedder's answer. Each must be plain data, as PHP has it.
 */
import type { HarnessContext, Outcome, RenderAttempt, SecurityCase } from '../types.js';
import type { RenderOptions } from '../../engine.js';
import { judge } from './helpers.js';
import { PROTO_KEYS_JSON, harnessHttp } from '../host/http.js';

/** What every form of IS-15 prints of PROTO_KEYS_JSON's data in `$x`: its keys, its values, nothing inherited. */
const SHOW_KEYS =
  '{foreach from=$x key=k item=v}{$k},{/foreach}|{$x.__proto__.polluted}|{$x.toString}|{$x.constructor.prototype.p}|{$y.polluted}|{$x|@count}|{$x|@json_encode}';
const SHOWN = `__proto__,constructor,toString,|1|3|2||3|${PROTO_KEYS_JSON}`;

const JS_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', '__defineGetter__'];

interface Expect {
  template: string;
  opts?: RenderOptions;
  /** The exact output, or the error code the render must end with. */
  output?: string;
  code?: string;
}

/** Renders each form in order: the outcome of the first one that is not as expected, or null. */
async function allAsExpected(h: HarnessContext, forms: Expect[]): Promise<Outcome | null> {
  for (const f of forms) {
    const a: RenderAttempt = await h.render(f.template, f.opts ?? {});
    const ok = f.code !== undefined ? a.code === f.code : a.output === f.output;
    const o = judge(h, a, ok, f.code ?? `output ${JSON.stringify(f.output)}`);
    if (o.status !== 'contained') return { ...o, detail: `${JSON.stringify(f.template.slice(0, 80))}: ${o.detail}` };
  }
  return null;
}

export const CG_MORE: SecurityCase[] = [
  {
    id: 'CG-19',
    category: 'CG',
    title: 'JavaScript names as the names a plugin looks up (escape types, charsets, encodings, math, regex)',
    async run(h) {
      const vars = { x: 'a<', y: '&lt;' };
      const forms: Expect[] = JS_NAMES.flatMap((n) => [
        // Smarty prints the value unchanged for an unknown escape type.
        { template: `[{$x|escape:'${n}'}][{$x|escape:'${n}'|@json_encode}]`, opts: { vars }, output: '[a<]["a<"]' },
        // PHP warns about an unknown charset and works in UTF-8.
        {
          template: `[{$x|escape:'html':'${n}'}][{$x|escape:'htmlall':'${n}'}][{$y|html_entity_decode:3:'${n}'}]`,
          opts: { vars },
          output: '[a&lt;][a&lt;][<]',
        },
        { template: `[{$x|mb_convert_encoding:'${n}'}]`, opts: { vars }, output: '[]' },
        { template: `{math equation='${n}(1)'}`, code: 'E_BAD_ATTRIBUTE' },
        { template: `{$x|regex_replace:'/\\p{${n}}/u':'z'}`, opts: { vars }, code: 'E_REGEX_UNSUPPORTED' },
        // Month, weekday, relative and zone words: PHP's strtotime fails on each (false).
        {
          template: `[{'${n} 1 2020'|strtotime}][{'next ${n}'|strtotime}][{'2020-01-01 10:00 ${n}'|strtotime}]`,
          output: '[][][]',
        },
        // An unknown POSIX class: the pattern does not compile, preg_match is false.
        {
          template: `{rcms_match var=m pattern="/[[:${n}:]]/" subject="a"}{if $m === false}F{/if}`,
          output: 'F',
        },
        { template: `{include file="${n}"}`, code: 'E_INCLUDE_NOT_FOUND' },
        { template: `{function name="${n}" var=r}`, code: 'E_FUNCTION_NOT_FOUND' },
      ]);
      return (
        (await allAsExpected(h, forms)) ?? {
          status: 'contained',
          detail: `${forms.length} lookups by ${JS_NAMES.length} JavaScript names found nothing of Object.prototype`,
        }
      );
    },
  },
];

export const IS_MORE: SecurityCase[] = [
  {
    id: 'IS-15',
    category: 'IS',
    title:
      'keys named __proto__, constructor, toString in data: variables, json_decode, assign, globals, a server, {return}',
    async run(h) {
      const x = JSON.parse(PROTO_KEYS_JSON) as unknown;
      const u = `http://api.example.com:${harnessHttp().port}/proto`;
      const forms: Expect[] = [
        { template: SHOW_KEYS, opts: { vars: { x } }, output: SHOWN },
        {
          template: `{assign var=x value=$j|json_decode:true}${SHOW_KEYS}`,
          opts: { vars: { j: PROTO_KEYS_JSON } },
          output: SHOWN,
        },
        {
          template: `{assign var=x value=$j|json_decode}${SHOW_KEYS}`,
          opts: { vars: { j: PROTO_KEYS_JSON } },
          output: SHOWN,
        },
        {
          template: `{assign_globals key="__proto__" value=$a}{assign_globals var=x key="__proto__"}${SHOW_KEYS}`,
          opts: { vars: { a: x } },
          output: SHOWN,
        },
        // The remote server's JSON, decoded on the host and sent into the isolate.
        { template: `{api endpoint=$u json_var=x}${SHOW_KEYS}`, opts: { vars: { u } }, output: SHOWN },
        {
          template:
            '{assign var="x.__proto__.polluted" value=1}{assign var="x.constructor.prototype.p" value=2}[{$q.polluted}{$q.constructor.prototype.p}]{$x|@json_encode}',
          output: '[]{"__proto__":{"polluted":1},"constructor":{"prototype":{"p":2}}}',
        },
        // A host tag's attribute named after an Object.prototype member: the host refuses it by name.
        { template: '{assign_globals key="k" value=1 constructor=1 toString=2}', code: 'E_UNKNOWN_ATTR' },
        {
          template: '[{$smarty.get.__proto__}][{$smarty.get.constructor}][{$smarty.get.toString}]',
          opts: { request: { get: JSON.parse('{"__proto__":"q"}') as Record<string, string> } },
          output: '[q][][]',
        },
      ];
      const bad = await allAsExpected(h, forms);
      if (bad) return bad;
      // The embedder's copy of {return}: plain data, its prototype Object.prototype, a `__proto__`
      // key an own key of it (toJS's setKey, src/value/value.ts), the keys after it plain too.
      const kept = JSON.parse('{"__proto__":{"a":1},"constructor":{"prototype":{"p":2}},"toString":3}') as object;
      let v: unknown;
      try {
        v = (await h.engine().render('{return value=$x}', { vars: { x: kept } })).returnValue;
      } catch (e) {
        return { status: 'escaped', detail: `{return} of such keys failed: ${(e as Error).message}` };
      }
      if (
        Object.getPrototypeOf(v) !== Object.prototype ||
        !Object.hasOwn(v as object, '__proto__') ||
        JSON.stringify(v) !== JSON.stringify(kept)
      )
        return { status: 'escaped', detail: `{return} gave the embedder ${JSON.stringify(v)}, or another prototype` };
      return {
        status: 'contained',
        detail: `${forms.length} paths kept such keys as plain keys; {return} gives plain data, no prototype of the template's`,
      };
    },
  },
];

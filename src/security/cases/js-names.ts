/**
 * The fourth review's attacks on JavaScript names (docs/security.md CG-19): a name of
 * Object.prototype (`constructor`, `toString`, `__proto__`...) given where a plugin looks a name
 * up in a table of its own, or used as a key of template data that crosses the runtime, the
 * bridge and the embedder's answer. Each must be plain data, as PHP has it.
 */
import type { HarnessContext, Outcome, RenderAttempt, SecurityCase } from '../types.js';
import type { RenderOptions } from '../../engine.js';
import { judge } from './helpers.js';

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
        { template: `[{'${n} 1 2020'|strtotime}][{'next ${n}'|strtotime}]`, output: '[][]' },
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

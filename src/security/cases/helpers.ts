/** Small builders for catalogue cases: most cases are "this template must end with that code". */
import type { Category, HarnessContext, Outcome, RenderAttempt, SecurityCase } from '../types.js';
import type { RenderOptions } from '../../engine.js';
import type { SandboxLimits } from '../../sandbox/limits.js';

type Opts = RenderOptions & { limits?: Partial<SandboxLimits> };

/** Contained when the outcome is right and nothing secret shows in output or message. */
export function judge(h: HarnessContext, a: RenderAttempt, ok: boolean, what: string): Outcome {
  const text = `${a.output ?? ''}\n${a.message ?? ''}`;
  if (h.canaries.leaked(text)) return { status: 'escaped', detail: `a canary value appeared in the ${a.output !== undefined ? 'output' : 'error'}` };
  if (a.code === 'E_UNCAUGHT') return { status: 'escaped', detail: `the engine threw a non-template error: ${a.message}` };
  return ok
    ? { status: 'contained', detail: what, figures: { ms: a.ms } }
    : { status: 'escaped', detail: `${what}; got ${a.code ? `${a.code}: ${a.message}` : `output ${JSON.stringify((a.output ?? '').slice(0, 80))}`}` };
}

/** The render must fail with one of `codes`. */
export function refuses(id: string, category: Category, title: string, template: string, codes: string | string[], opts: Opts = {}): SecurityCase {
  const list = Array.isArray(codes) ? codes : [codes];
  return {
    id,
    category,
    title,
    async run(h) {
      const a = await h.render(template, opts);
      return judge(h, a, a.code !== undefined && list.includes(a.code), `refused with ${list.join(' or ')}`);
    },
  };
}

/** The template must render exactly `output` (hostile text stays text). */
export function renders(id: string, category: Category, title: string, template: string, output: string | ((o: string) => boolean), opts: Opts = {}): SecurityCase {
  return {
    id,
    category,
    title,
    async run(h) {
      const a = await h.render(template, opts);
      const ok = a.output !== undefined && (typeof output === 'string' ? a.output === output : output(a.output));
      return judge(h, a, ok, 'rendered as data');
    },
  };
}

/** Several templates, each must be refused with one of `codes` (a corpus under one catalogue id). */
export function refusesAll(id: string, category: Category, title: string, templates: string[], codes: string[], opts: Opts = {}): SecurityCase {
  return {
    id,
    category,
    title,
    async run(h) {
      for (const t of templates) {
        const a = await h.render(t, opts);
        const o = judge(h, a, a.code !== undefined && codes.includes(a.code), `refused with ${codes.join(' or ')}`);
        if (o.status !== 'contained') return { ...o, detail: `${JSON.stringify(t.slice(0, 60))}: ${o.detail}` };
      }
      return { status: 'contained', detail: `${templates.length} forms refused` };
    },
  };
}

/** Raw JavaScript in a real render context ("assume breach"): `check` judges the attempt. */
export function breach(id: string, category: Category, title: string, body: string, check: (a: RenderAttempt) => boolean, what: string, limits?: Partial<SandboxLimits>): SecurityCase {
  return {
    id,
    category,
    title,
    async run(h) {
      const a = await h.rawJs(body, { limits });
      return judge(h, a, check(a), what);
    },
  };
}

/** Small builders for catalogue cases: most cases are "this template must end with that code". */
import type { Category, HarnessContext, Outcome, RenderAttempt, SecurityCase } from '../types.js';
import type { RenderOptions } from '../../engine.js';
import type { SandboxLimits } from '../../sandbox/limits.js';

type Opts = RenderOptions & { limits?: Partial<SandboxLimits> };

/** Contained when the outcome is right and nothing secret shows in output or message. */
export function judge(h: HarnessContext, a: RenderAttempt, ok: boolean, what: string): Outcome {
  const text = `${a.output ?? ''}\n${a.message ?? ''}`;
  if (h.canaries.leaked(text))
    return {
      status: 'escaped',
      detail: `a canary value appeared in the ${a.output !== undefined ? 'output' : 'error'}`,
    };
  if (a.code === 'E_UNCAUGHT')
    return { status: 'escaped', detail: `the engine threw a non-template error: ${a.message}` };
  return ok
    ? { status: 'contained', detail: what, figures: { ms: a.ms } }
    : {
        status: 'escaped',
        detail: `${what}; got ${a.code ? `${a.code}: ${a.message}` : `output ${JSON.stringify((a.output ?? '').slice(0, 80))}`}`,
      };
}

/** The render must fail with one of `codes`. */
export function refuses(
  id: string,
  category: Category,
  title: string,
  template: string,
  codes: string | string[],
  opts: Opts = {},
): SecurityCase {
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
export function renders(
  id: string,
  category: Category,
  title: string,
  template: string,
  output: string | ((o: string) => boolean),
  opts: Opts = {},
): SecurityCase {
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

/** One render that must be refused with one of `codes`; `label` names it in a failure (default: the template's start). */
export interface Refusal {
  template: string;
  codes: string[];
  opts?: Opts;
  label?: string;
}

/**
 * Renders the forms in order: the outcome of the first one not refused as it should be (or
 * leaking a canary), null when all were. `each` sees every refused attempt with its index
 * (for cases that also compare the messages or timings of the refusals).
 */
export async function allRefused(
  h: HarnessContext,
  forms: Refusal[],
  each?: (a: RenderAttempt, i: number) => void,
): Promise<Outcome | null> {
  for (const [i, f] of forms.entries()) {
    const a = await h.render(f.template, f.opts ?? {});
    const o = judge(h, a, a.code !== undefined && f.codes.includes(a.code), `refused with ${f.codes.join(' or ')}`);
    if (o.status !== 'contained')
      return { ...o, detail: `${f.label ?? JSON.stringify(f.template.slice(0, 90))}: ${o.detail}` };
    each?.(a, i);
  }
  return null;
}

/** Several templates, each must be refused with one of `codes` (a corpus under one catalogue id). */
export function refusesAll(
  id: string,
  category: Category,
  title: string,
  templates: string[],
  codes: string[],
  opts: Opts = {},
): SecurityCase {
  return {
    id,
    category,
    title,
    async run(h) {
      const forms = templates.map((t) => ({ template: t, codes, opts, label: JSON.stringify(t.slice(0, 60)) }));
      return (await allRefused(h, forms)) ?? { status: 'contained', detail: `${templates.length} forms refused` };
    },
  };
}

/** Raw JavaScript in a real render context ("assume breach"): `check` judges the attempt. */
export function breach(
  id: string,
  category: Category,
  title: string,
  body: string,
  check: (a: RenderAttempt) => boolean,
  what: string,
  limits?: Partial<SandboxLimits>,
): SecurityCase {
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

/** Resolves true once `test` holds, false after `ms` (polled: the thing awaited is another party's state). */
export async function within(ms: number, test: () => boolean): Promise<boolean> {
  const until = Date.now() + ms;
  while (!test()) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/**
 * A sample site on one backend and an engine over it, for the tests of one `describe` block:
 * made before its tests, closed and removed after. Renders go through the real engine with the
 * site's adapters and the example engine's clock (FIXED_NOW), as a given member.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { createEngine, TemplateError, type Engine, type HostAdapters, type RenderIdentity, type RenderResult } from '../../../src/index.js';
import type { Site } from '../../../src/site/open-site.js';
import { FIXED_NOW, FIXED_SEED } from '../../support/engine.js';
import { sampleSite, type Backend } from './backends.js';

export interface RenderAs {
  memberId?: number | null;
  context?: RenderIdentity['context'];
  vars?: Record<string, unknown>;
}

export interface SampleSiteEngine {
  readonly site: Site;
  render(template: string, as?: RenderAs): Promise<string>;
  /** The whole result (output, logs, warnings). */
  result(template: string, as?: RenderAs): Promise<RenderResult>;
  /** The code of the error the render must fail with, and where. */
  error(template: string, as?: RenderAs): Promise<{ code: string; line: number; message: string }>;
}

/** `host` changes the site's adapters for this engine (a cookie jar, a missing method). */
export function useSampleSite(backend: Backend, opts: { siteKey?: string; host?: (site: HostAdapters) => HostAdapters } = {}): SampleSiteEngine {
  let site: (Site & { done(): Promise<void> }) | undefined;
  let engine: Engine | undefined;
  beforeAll(async () => {
    site = await sampleSite(backend, { siteKey: opts.siteKey });
    const host = opts.host ? opts.host(site.host) : site.host;
    engine = createEngine({ ...site.engineOptions(), host, now: () => FIXED_NOW, seed: FIXED_SEED, workers: 1 });
  });
  afterAll(async () => {
    engine?.close();
    await site?.done();
  });
  const run = (template: string, as: RenderAs): Promise<RenderResult> =>
    engine!.render(template, { name: 'test.tpl', identity: site!.identity({ memberId: as.memberId ?? null, context: as.context }), vars: as.vars });
  return {
    get site() {
      return site!;
    },
    async render(template, as = {}) {
      return (await run(template, as)).output;
    },
    result: (template, as = {}) => run(template, as),
    async error(template, as = {}) {
      const e = await run(template, as).then(
        () => null,
        (x: unknown) => x,
      );
      expect(e, 'the render should fail').toBeInstanceOf(TemplateError);
      const t = e as TemplateError;
      return { code: t.code, line: t.line, message: t.message };
    },
  };
}

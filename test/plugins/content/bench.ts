/**
 * A sample site (`smartcage site init` data) on one backend with an engine over it, for the
 * content plugins' rule tests: renders go through the real engine (a sandbox worker) and the
 * site's real adapters. The render's clock is `bench.clock.now` (default the examples' clock,
 * 1700000000 = 2023-11-15 07:13:20 Asia/Tokyo), so open/close rules can be tried at any instant.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { createEngine, TemplateError, type Engine } from '../../../src/index.js';
import { sampleSite, type Backend } from '../../site/support/backends.js';
import type { Site } from '../../../src/site/open-site.js';
import type { SqlValue } from '../../../src/site/db/database.js';
import { FIXED_NOW } from '../../support/engine.js';

/** Variables, the request ($smarty.get...) and the member of a render. */
export interface RenderOpts {
  vars?: Record<string, unknown>;
  request?: Record<string, unknown>;
  memberId?: number;
}

export interface ContentBench {
  site: Site;
  clock: { now: number };
  render(source: string, opts?: RenderOpts): Promise<string>;
  /** The TemplateError the render must fail with: its code and line. */
  error(source: string, opts?: { vars?: Record<string, unknown> }): Promise<{ code: string; line: number; message: string }>;
  /** SQL on the site's database with its tenant as the first parameter. */
  sql(statement: string, params?: SqlValue[]): Promise<void>;
}

/** Registers beforeAll/afterAll: a site of its own (its own tenant) and an engine for it. */
export function contentBench(backend: Backend): ContentBench {
  let site: (Site & { done(): Promise<void> }) | undefined;
  let engine: Engine | undefined;
  const clock = { now: FIXED_NOW };
  beforeAll(async () => {
    site = await sampleSite(backend);
    engine = createEngine({ ...site.engineOptions(), now: () => clock.now, workers: 1 });
  });
  afterAll(async () => {
    engine?.close();
    await site?.done();
  });
  const render = async (source: string, opts: RenderOpts = {}): Promise<string> =>
    (await engine!.render(source, { name: 'page.tpl', identity: site!.identity({ memberId: opts.memberId ?? null }), vars: opts.vars, request: opts.request })).output;
  return {
    get site() {
      return site!;
    },
    clock,
    render,
    async error(source, opts = {}) {
      const e = await render(source, opts).then(
        () => null,
        (x: unknown) => x,
      );
      expect(e, 'the render must fail').toBeInstanceOf(TemplateError);
      const t = e as TemplateError;
      return { code: t.code, line: t.line, message: t.message };
    },
    async sql(statement, params = []) {
      await site!.db.run(statement, [site!.tenant, ...params]);
    },
  };
}

/**
 * A sample site (`smartcage site init` data) on one backend with an engine over it, for the rule
 * tests of the site's plugins (content, members, tags, community): renders go through the real
 * engine (a sandbox worker, or in this process with `workers: 0`) and the site's real adapters. The render's clock is `bench.clock.now`
 * (default the examples' clock, 1700000000 = 2023-11-15 07:13:20 Asia/Tokyo), so open/close and
 * since-when rules can be tried at any instant.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import {
  createEngine,
  TemplateError,
  type Engine,
  type EngineOptions,
  type HostAdapters,
  type RenderIdentity,
  type RenderResult,
} from '../../../src/index.js';
import { sampleSite, type Backend, type SampleOptions } from './backends.js';
import type { Site } from '../../../src/site/open-site.js';
import type { SqlValue } from '../../../src/site/db/database.js';
import { FIXED_NOW, FIXED_SEED } from '../../support/engine.js';

/** Variables, the request ($smarty.get...), the member and the context of a render. */
interface RenderOpts {
  vars?: Record<string, unknown>;
  request?: Record<string, unknown>;
  memberId?: number | null;
  context?: RenderIdentity['context'];
}

export interface SiteBench {
  readonly site: Site;
  clock: { now: number };
  render(source: string, opts?: RenderOpts): Promise<string>;
  /** The whole result (output, logs, warnings). */
  result(source: string, opts?: RenderOpts): Promise<RenderResult>;
  /** The TemplateError the render must fail with: its code, line and message. */
  error(source: string, opts?: RenderOpts): Promise<{ code: string; line: number; message: string }>;
  /** SQL on the site's database with its tenant as the first parameter. */
  sql(statement: string, params?: SqlValue[]): Promise<void>;
}

/**
 * Registers beforeAll/afterAll: a site of its own (its own tenant) and an engine for it. `host`
 * changes the site's adapters for this engine (a cookie jar, a missing method).
 */
export function siteBench(
  backend: Backend,
  opts: {
    host?: (site: HostAdapters) => HostAdapters;
    sample?: SampleOptions;
    /** The engine's options over the bench's (`workers: 0`, `limits`). */
    engine?: Partial<EngineOptions>;
  } = {},
): SiteBench {
  let site: (Site & { done(): Promise<void> }) | undefined;
  let engine: Engine | undefined;
  const clock = { now: FIXED_NOW };
  beforeAll(async () => {
    site = await sampleSite(backend, opts.sample);
    const host = opts.host ? opts.host(site.host) : site.host;
    engine = createEngine({
      ...site.engineOptions(),
      host,
      now: () => clock.now,
      seed: FIXED_SEED,
      workers: 1,
      ...opts.engine,
    });
  });
  afterAll(async () => {
    await engine?.close();
    await site?.done();
  });
  const result = (source: string, o: RenderOpts = {}): Promise<RenderResult> =>
    engine!.render(source, {
      name: 'page.tpl',
      identity: site!.identity({ memberId: o.memberId ?? null, context: o.context }),
      vars: o.vars,
      request: o.request,
    });
  return {
    get site() {
      return site!;
    },
    clock,
    result,
    async render(source, o) {
      return (await result(source, o)).output;
    },
    async error(source, o) {
      const e = await result(source, o).then(
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

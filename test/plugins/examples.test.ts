/**
 * Every plugin declares runnable examples; each one is rendered through the real path and
 * must print exactly what the declaration says. Plugins whose capability the test host lacks
 * (content, members, sessions...) run on a sample site (`smartcage site init`), as the README
 * documents it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PLUGINS } from '../../src/plugins/registry.js';
import { testEngine, FIXED_NOW, FIXED_SEED } from '../support/engine.js';
import { testHost } from '../support/test-host.js';
import { createEngine, type Engine } from '../../src/index.js';
import { hostProvides } from '../../src/host-api/capabilities.js';
import type { Plugin } from '../../src/plugins/types.js';
import { BACKENDS, sampleSite } from '../site/support/backends.js';
import type { Site } from '../../src/site/open-site.js';

const engine = testEngine();
const onTestHost = (p: Plugin): boolean => p.kind === 'modifier' || !p.host || hostProvides(testHost(), p.host);

let site: (Site & { done(): Promise<void> }) | undefined;
let siteEngine: Engine | undefined;
beforeAll(async () => {
  if (ALL_PLUGINS.every(onTestHost)) return;
  site = await sampleSite(BACKENDS[0]!);
  // The first {generate_pdf} starts Chromium inside its render's wall time: seconds on a busy machine.
  siteEngine = createEngine({
    ...site.engineOptions(),
    now: () => FIXED_NOW,
    seed: FIXED_SEED,
    workers: 1,
    limits: { wallMs: 30_000 },
  });
});
afterAll(async () => {
  await siteEngine?.close();
  await site?.done();
});

describe('plugin examples', () => {
  it('every plugin has at least one example', () => {
    const missing = ALL_PLUGINS.filter((p) => p.examples.length === 0).map((p) => p.name);
    expect(missing).toEqual([]);
  });

  for (const p of ALL_PLUGINS) {
    p.examples.forEach((ex, i) => {
      it(`${p.kind} ${p.name} #${i + 1}: ${ex.template}`, async () => {
        if (!onTestHost(p)) {
          const identity = site!.identity({
            memberId: ex.memberId ?? null,
            ...(ex.context ? { context: ex.context } : {}),
          });
          const { output } = await siteEngine!.render(ex.template, {
            name: `${p.name}-example.tpl`,
            identity,
            vars: ex.vars as Record<string, unknown> | undefined,
          });
          expect(output).toBe(ex.output);
          return;
        }
        const e = ex.functions
          ? createEngine({ now: () => FIXED_NOW, seed: FIXED_SEED, functions: ex.functions, workers: 0 })
          : engine;
        try {
          const { output } = await e.render(ex.template, {
            name: `${p.name}-example.tpl`,
            vars: ex.vars as Record<string, unknown> | undefined,
          });
          expect(output).toBe(ex.output);
        } finally {
          if (e !== engine) await e.close();
        }
      });
    });
  }
});

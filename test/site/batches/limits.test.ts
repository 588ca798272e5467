/**
 * site.json `batch_limits` (src/site/batches/limits.ts) read strictly with its defaults, and what
 * the engine does with it: the memory class as a floor, and a render cancelled through its signal
 * mid-sleep (E_CANCELLED, the sleep cut short).
 */
import { describe, expect, it } from 'vitest';
import { testEngine, templateError } from '../../support/engine.js';
import {
  DEFAULT_BATCH_LIMITS,
  MAX_BATCH_CPU_MS,
  MAX_BATCH_WALL_MS,
  batchSandboxLimits,
  parseBatchLimits,
} from '../../../src/site/batches/limits.js';
import { parseSiteConfig } from '../../../src/site/config.js';
import { RENDER_CHANNEL, type RenderEvent } from '../../../src/index.js';
import { tracingChannel } from 'node:diagnostics_channel';

describe('batch_limits', () => {
  it('fills in the defaults and reads wall as a duration or in ms', () => {
    expect(parseBatchLimits(undefined)).toEqual(DEFAULT_BATCH_LIMITS);
    expect(parseBatchLimits({ wall: '2h', cpu_ms: 120_000, memory: '512M' })).toEqual({
      wallMs: 7_200_000,
      cpuMs: 120_000,
      memoryMB: 512,
    });
    expect(parseBatchLimits({ wall: '90s' })).toMatchObject({ wallMs: 90_000, cpuMs: 60_000, memoryMB: 128 });
    expect(parseBatchLimits({ wall_ms: 45 * 60_000 })).toMatchObject({ wallMs: 2_700_000 });
  });

  it('refuses what it does not know, in one line naming the key', () => {
    // What the schema cannot say; the keys and their types are the schema's (below).
    expect(parseBatchLimits({ wall: '2d' })).toMatch(/"wall" is a duration/);
    expect(parseBatchLimits({ wall: '25h' })).toMatch(/1 s to 24 h/);
    expect(parseBatchLimits({ wall: '1h', wall_ms: 1000 })).toMatch(/not both/);
    const site = (batch_limits: unknown) => () =>
      parseSiteConfig({ site_key: 's', timezone: 'UTC', lang: 'en', batch_limits }, 'site.json');
    expect(site({ cpu_ms: 10 })).toThrow('site.json: /batch_limits/cpu_ms: must be at least 100');
    expect(site({ cpu_ms: MAX_BATCH_CPU_MS + 1 })).toThrow(`must be at most ${MAX_BATCH_CPU_MS}`);
    expect(site({ wall_ms: MAX_BATCH_WALL_MS + 1 })).toThrow(`must be at most ${MAX_BATCH_WALL_MS}`);
    expect(site({ wall_ms: '1000' })).toThrow('site.json: /batch_limits/wall_ms: must be an integer');
    expect(site({ timeout: 1 })).toThrow('site.json: /batch_limits: unknown key "timeout" (known: wall, wall_ms');
    expect(() =>
      parseSiteConfig({ site_key: 's', timezone: 'UTC', lang: 'en', batch_limits: { memory: '1G' } }, 'site.json'),
    ).toThrow('site.json: /batch_limits/memory: must be one of 128M, 256M, 512M, 768M');
    expect(() =>
      parseSiteConfig({ site_key: 's', timezone: 'UTC', lang: 'en', batch_limits: { wall: '25h' } }, 'site.json'),
    ).toThrow('site.json: /batch_limits: the wall time must be 1 s to 24 h');
    expect(
      parseSiteConfig({ site_key: 's', timezone: 'UTC', lang: 'en', batch_limits: { wall: '3m' } }, 'site.json')
        .batch_limits,
    ).toMatchObject({ wallMs: 180_000 });
  });

  it('gives a run a sleep budget as long as its wall, and host calls by the wall', () => {
    expect(batchSandboxLimits({ wallMs: 3_600_000, cpuMs: 60_000, memoryMB: 128 })).toEqual({
      wallMs: 3_600_000,
      cpuMs: 60_000,
      maxSleepMs: 3_600_000,
      maxHostCalls: 360_000,
    });
    expect(batchSandboxLimits({ wallMs: 5000, cpuMs: 1000, memoryMB: 128 }).maxHostCalls).toBe(1000);
    expect(MAX_BATCH_WALL_MS).toBe(86_400_000);
  });
});

describe('the engine under batch limits', () => {
  const engine = testEngine({
    memoryClass: 256,
    limits: batchSandboxLimits({ wallMs: 60_000, cpuMs: 1000, memoryMB: 256 }),
  });

  it('renders in the memory class given at least, more when {set_memory} asks', async () => {
    const seen: number[] = [];
    const sub = {
      start() {},
      end() {},
      asyncStart() {},
      asyncEnd: (m: unknown) => void seen.push((m as RenderEvent).memoryMB!),
      error() {},
    };
    tracingChannel(RENDER_CHANNEL).subscribe(sub);
    try {
      await engine.render('small');
      await engine.render("{set_memory memory_limit='512M'}big");
    } finally {
      tracingChannel(RENDER_CHANNEL).unsubscribe(sub);
    }
    expect(seen).toEqual([256, 512]);
  });

  it('sleeps past the web budget of 3 s, then a cancel ends the render in its sleep with E_CANCELLED', async () => {
    const cancel = new AbortController();
    const render = engine.render('{section name=i loop=100}{sleep ms=1000}{/section}never', { signal: cancel.signal });
    setTimeout(() => cancel.abort(), 4500);
    const e = await templateError(render);
    expect(e.code).toBe('E_CANCELLED');
    // E_CANCELLED, not the web's sleep budget (3 s, which the cancel comes after): the host's
    // budget for a cancellable render is the cancel's; the test's timeout bounds the 100 s loop.
  }, 90_000);

  it('does not start a render whose signal is aborted already', async () => {
    expect((await templateError(engine.render('{sleep ms=100}x', { signal: AbortSignal.abort() }))).code).toBe(
      'E_CANCELLED',
    );
  });
});

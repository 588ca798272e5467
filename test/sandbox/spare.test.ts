/**
 * When the spare isolate of a memory class is built (src/sandbox/isolate-host.ts `acquire`): after
 * the first render of the isolate a tenant took, not while that render runs, since building one
 * holds the thread for milliseconds that the new tenant would wait for; unless that render runs
 * long (D357), when it is likely to end at a limit and its tenant to need the spare at once.
 * Spares belong to their pool (an engine's or a worker's isolate cache), never to the process.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { SparePool, type IsolateHost } from '../../src/sandbox/isolate-host.js';
import { renderRequest } from '../../src/sandbox/request.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { compile } from '../../src/compiler/index.js';

const MB = 512;
const hosts: IsolateHost[] = [];
const spares = new SparePool();
const other = new SparePool();
afterAll(async () => {
  for (const h of hosts) h.retire();
  await spares.close();
  await other.close();
});

const template = () => {
  const r = compile('{$x|upper}', { name: 'spare.tpl', id: 'spare.tpl' });
  return { id: 'spare.tpl', code: r.code, filename: 'spare.js' };
};
const request = () =>
  renderRequest({
    templateName: 'spare.tpl',
    now: 1700000000,
    site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
    vars: { x: 'ok' },
    seed: Array.from({ length: 16 }, () => 7),
  });
const turn = () => new Promise((r) => setImmediate(r));

describe('spare isolates', () => {
  it('the next spare starts after the first render of the isolate a tenant took', async () => {
    expect(spares.has(MB)).toBe(false);
    const first = spares.acquire(MB);
    hosts.push(first);
    const rendering = first.render(template(), request(), DEFAULT_LIMITS, null);
    await turn();
    expect(spares.has(MB), 'no spare is built while the first render runs').toBe(false);
    expect((await rendering).output).toBe('OK');
    await turn();
    expect(spares.has(MB), 'a spare is warming once the first render is done').toBe(true);
    expect(other.has(MB), 'another pool (another engine) never gets it').toBe(false);
  });

  it('the next tenant takes that spare, and its first render starts the one after', async () => {
    const second = spares.acquire(MB);
    hosts.push(second);
    expect(spares.has(MB)).toBe(false);
    expect((await second.render(template(), request(), DEFAULT_LIMITS, null)).output).toBe('OK');
    await turn();
    expect(spares.has(MB)).toBe(true);
  });

  it('a first render that runs long starts the next spare before it ends (D357)', async () => {
    const pool = new SparePool();
    const endless = compile('{section name=i loop=1000000000}{/section}', { name: 'endless.tpl', id: 'endless.tpl' });
    const host = pool.acquire(MB);
    hosts.push(host);
    try {
      const rendering = host.render(
        { id: 'endless.tpl', code: endless.code, filename: 'endless.js', hostFree: true },
        request(),
        { ...DEFAULT_LIMITS, cpuMs: 1500, wallMs: 3000 },
        null,
      );
      let settled = false;
      void rendering.then(() => (settled = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(settled, 'the render still runs').toBe(false);
      expect(pool.has(MB), 'the next spare is warming while it runs').toBe(true);
      expect((await rendering).error?.code).toBe('E_CPU_TIMEOUT');
    } finally {
      await pool.close();
    }
  });

  it('later renders of the same isolate start no spare', async () => {
    await spares.close();
    expect((await hosts[0]!.render(template(), request(), DEFAULT_LIMITS, null)).output).toBe('OK');
    await turn();
    expect(spares.has(MB)).toBe(false);
  });
});

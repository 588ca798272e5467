/**
 * A batch that runs for minutes, on every queue backend at once (SQLite, PostgreSQL, BullMQ on
 * Redis), under real `smartcage batch run` processes: two workers per site. One run sleeps and
 * writes a line each second for LONG_S seconds (3 minutes; SMARTCAGE_LONG_BATCH_S shortens it while
 * working on this file), far past the web's 5 s wall and 3 s sleep budget, within the site's
 * batch_limits; `batch history` shows its heartbeats and progress while it runs. Another run, the
 * same loop without end, is cancelled mid-way with `smartcage batch cancel`: history says
 * cancelled and its host work stops (no line is written after). A run cancelled while queued
 * never starts. The only long test of the suite: CI pays its minutes once.
 * SMARTCAGE_LONG_BATCH_QUEUE=sqlite|postgres|bullmq runs one backend only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SITE_QUEUES, batchSite, type SiteQueueVariant } from './support/sites.js';
import { failureOf, type TestSite } from '../support/site-with.js';
import { history, type RunRecord } from '../../../src/site/batches/history.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const LONG_S = Number(process.env.SMARTCAGE_LONG_BATCH_S ?? 180);
/** The workers' lease: a heartbeat every 2 s. */
const LEASE_S = 6;

/** `smartcage ARGS` in a process of its own (the CLI from the sources); its exit and its standard streams. */
function smartcage(args: string[]): { child: ChildProcess; exited: Promise<{ code: number | null; out: string }> } {
  const child = spawn(
    process.execPath,
    [
      '--no-node-snapshot',
      '--import',
      'tsx',
      '-e',
      `import(${JSON.stringify(ROOT + 'src/cli/main.ts')}).then(async (m) => { process.exitCode = await m.main(${JSON.stringify(args)}); })`,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; out: string }>((res) =>
    child.once('exit', (code) => res({ code, out })),
  );
  return { child, exited };
}

async function until<T>(what: string, get: () => Promise<T | undefined>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const loop = (n: number, file: string) =>
  `{section name=i loop=${n}}{sleep ms=1000}{write_file path="/files/user/${file}" var=p value="` +
  '`$smarty.section.i.index`' +
  `\\n" is_append=1}{/section}done after {$smarty.section.i.total} lines`;

const page = (site: TestSite, src: string) =>
  site.engines
    .at(0)
    .render(src, { name: 'page.tpl', identity: site.identity() })
    .then((r) => r.output);

const linesOf = (site: TestSite, file: string): number => {
  const f = path.join(site.dir, 'files', 'user', file);
  return existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean).length : 0;
};

const attempt = async (site: TestSite, runId: number): Promise<RunRecord | undefined> =>
  (await history(site, { runId }))[0];

interface Variant {
  v: SiteQueueVariant;
  site: TestSite;
}

const available = SITE_QUEUES.filter(
  (v) => v.available && (process.env.SMARTCAGE_LONG_BATCH_QUEUE ?? v.name) === v.name,
);

describe('a batch of minutes under site limits, heartbeats and cancel', () => {
  const variants: Variant[] = [];
  beforeAll(async () => {
    for (const v of available) {
      const site = await batchSite(
        v,
        { long: loop(LONG_S, 'long.txt'), endless: loop(100_000, 'endless.txt'), never: 'never ran' },
        {
          edit(config) {
            config.batch_limits = { wall: `${LONG_S + 120}s`, cpu_ms: 10_000, memory: '256M' };
          },
        },
      );
      variants.push({ v, site });
    }
  });
  afterAll(async () => {
    for (const { site } of variants) await site.done();
  });

  it(
    `runs ${LONG_S} s with heartbeats in history, cancels another run mid-way and one still queued`,
    async () => {
      // The web context keeps its limits: the same loop in a page stops at its sleep budget or wall.
      expect(await failureOf(page(variants[0]!.site, loop(10, 'page.txt')))).toMatch(/^E_(SLEEP_BUDGET|WALL_TIMEOUT)@/);

      await Promise.all(
        variants.map(async ({ v, site }) => {
          expect(await page(site, '{batch name="long" var=a}{batch name="endless" var=b}{$a},{$b}')).toBe('1,2');
          // A run cancelled while queued never starts.
          expect(await page(site, '{batch name="never" var=c}{$c}')).toBe('3');
          const queued = await smartcage(['batch', 'cancel', site.dir, '3']).exited;
          expect(queued).toMatchObject({ code: 0, out: expect.stringContaining('run 3 cancelled') });
          const workers = [0, 1].map(() =>
            smartcage(['batch', 'run', '--site', site.dir, '--once', '--poll', '1', '--lease', String(LEASE_S)]),
          );
          try {
            // Both runs start, one on each worker, and beat.
            for (const id of [1, 2])
              await until(
                `${v.name}: run ${id}'s first heartbeat`,
                async () => {
                  const r = await attempt(site, id);
                  return r?.state === 'running' && r.heartbeat !== null && r.progress !== null ? r : undefined;
                },
                120_000,
              );
            // Heartbeats and progress move while the endless run works.
            const first = (await attempt(site, 2))!;
            const later = await until(
              `${v.name}: run 2's progress to move`,
              async () => {
                const r = (await attempt(site, 2))!;
                return r.heartbeat! > first.heartbeat! && r.progress !== first.progress ? r : undefined;
              },
              30_000,
            );
            expect(later.progress).toMatch(/^\d+ host calls, the last \{(sleep|write_file)\}$/);
            const shown = await smartcage(['batch', 'history', '--site', site.dir, '--run', '2']).exited;
            expect(shown.out).toMatch(/2#1 {2}endless {2}running .*\n {2}heartbeat: .+ {2}progress: \d+ host calls/);

            // Cancelled mid-way: the worker sees it at its next heartbeat, its sleep and the render end.
            const cancel = await smartcage(['batch', 'cancel', site.dir, '2']).exited;
            expect(cancel).toMatchObject({ code: 0, out: expect.stringContaining('run 2 is running') });
            const cancelled = await until(
              `${v.name}: run 2 to end`,
              async () => {
                const r = (await attempt(site, 2))!;
                return r.state === 'running' ? undefined : r;
              },
              30_000,
            );
            expect([cancelled.state, cancelled.errors[0]]).toEqual([
              'cancelled',
              expect.stringContaining('E_CANCELLED'),
            ]);
            const written = linesOf(site, 'endless.txt');
            expect(written).toBeGreaterThan(2);
            // Its host work stopped: nothing more is written.
            await new Promise((r) => setTimeout(r, 3000));
            expect(linesOf(site, 'endless.txt')).toBe(written);
            expect(await smartcage(['batch', 'cancel', site.dir, '2']).exited).toMatchObject({ code: 1 });

            // The long run goes on to its end, beating all along, under the site's limits.
            const done = await until(
              `${v.name}: run 1 to end`,
              async () => {
                const r = (await attempt(site, 1))!;
                return r.state === 'running' ? undefined : r;
              },
              (LONG_S + 90) * 1000,
            );
            expect([done.state, done.attempt, done.errors]).toEqual(['done', 1, []]);
            expect(done.output).toBe(`done after ${LONG_S} lines`);
            expect(done.ended! - done.started).toBeGreaterThanOrEqual(LONG_S - 1);
            expect(linesOf(site, 'long.txt')).toBe(LONG_S);
            expect(done.progress).toMatch(/^\d+ host calls/);

            const exits = await Promise.all(workers.map((w) => w.exited));
            expect(exits.map((e) => e.code)).toEqual([0, 0]);
            expect(exits.map((e) => e.out).join('')).not.toContain('run 3');
            expect((await history(site, { runId: 3 })).map((r) => [r.state, r.worker])).toEqual([['cancelled', '-']]);
          } catch (e) {
            // What the workers said, for the failure's report.
            for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
            const said = (await Promise.all(workers.map((w) => w.exited))).map((x) => x.out).join('\n');
            throw new Error(`${v.name}: ${(e as Error).message}\nworkers:\n${said}`, { cause: e });
          } finally {
            for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
          }
        }),
      );
    },
    (LONG_S + 240) * 1000,
  );
});

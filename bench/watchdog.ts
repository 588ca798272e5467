/**
 * `npm run bench:watchdog -- [--calls N] [--rounds N]` (after `npm run build`): what isolated-vm's
 * timeout on a synchronous call costs, against the slice's watchdog (src/sandbox/slice-watchdog.ts,
 * native/slice-watchdog; docs/decisions.md D373). In one isolate:
 * - checks that it bounds what the timeout bounds: an endless loop, a regular expression that
 *   backtracks for ever, and that the isolate runs the next call (a termination left pending by
 *   a call that ended is cancelled);
 * - times N `applySync` calls of a small function three ways, alternating: no bound, isolated-vm's
 *   `timeout: 2`, the watchdog armed for 2 ms around each call; with the calls back to back and
 *   30 and 200 µs apart (a spin between them, as requests arrive), process CPU per call less the gap.
 */
import ivm from 'isolated-vm';
import { runBench, UsageError, wholeNumber } from './lib/cli.js';
import {
  armSlice,
  disarmSlice,
  sliceWatchdogLoaded,
  unwatch,
  watch,
  watchdogWakes,
} from '../src/sandbox/slice-watchdog.js';

const HELP = `Usage: npm run bench:watchdog -- [--calls N] [--rounds N]

  --calls N   calls per way and round (default 20000)
  --rounds N  rounds per gap (default 3)`;

interface Options {
  calls: number;
  rounds: number;
}

function parseArgs(argv: string[]): Options | null {
  const o = { calls: 20_000, rounds: 3 };
  for (let i = 0; i < argv.length; i += 2) {
    const a = argv[i]!;
    if (a === '--help' || a === '-h') return null;
    if (a === '--calls') o.calls = wholeNumber(a, argv[i + 1]);
    else if (a === '--rounds') o.rounds = wholeNumber(a, argv[i + 1]);
    else throw new UsageError(`unknown option ${a}`);
  }
  return o;
}

const spin = (us: number) => {
  const end = process.hrtime.bigint() + BigInt(us * 1000);
  while (process.hrtime.bigint() < end);
};

async function main(o: Options): Promise<number> {
  if (!sliceWatchdogLoaded()) throw new Error('the slice watchdog is not built here (npm run build)');
  const isolate = new ivm.Isolate({ memoryLimit: 128 });
  const context = isolate.createContextSync();
  const watched = await watch(context);
  if (!watched) throw new Error('the watchdog did not register the isolate');
  const fn = (src: string) => context.evalSync(src, { reference: true }) as ivm.Reference<(...a: unknown[]) => unknown>;
  const endless = fn('(function () { for (;;) {} })');
  const backtracks = fn('(function () { return /^(a+)+$/.test("a".repeat(40) + "b"); })');
  const small = fn('(function () { let s = 0; for (let i = 0; i < 200; i++) s += i; return s; })');

  const guarded = (f: ivm.Reference<(...a: unknown[]) => unknown>, ms: number): string => {
    armSlice(watched, ms);
    const t0 = performance.now();
    let what: string;
    try {
      what = `returned ${String(f.applySync(undefined, []))}`;
    } catch (e) {
      // isolated-vm throws null for a termination it did not ask for.
      what = e === null ? 'terminated' : `threw ${String(e)}`;
    }
    const fired = disarmSlice();
    return `${what} after ${(performance.now() - t0).toFixed(2)} ms${fired ? ' (the watchdog fired)' : ''}`;
  };
  let failed = false;
  const expect = (label: string, got: string, want: string) => {
    const ok = got.startsWith(want);
    failed ||= !ok;
    console.log(`${ok ? 'ok ' : 'BAD'} ${label}: ${got}`);
  };
  expect('an endless loop, 2 ms', guarded(endless, 2), 'terminated');
  expect('the next call', guarded(small, 2), 'returned 19900');
  expect('a regular expression that backtracks, 2 ms', guarded(backtracks, 2), 'terminated');
  expect('the next call', guarded(small, 2), 'returned 19900');
  // A call that ended before its deadline leaves nothing behind for a later unguarded call.
  armSlice(watched, 1);
  small.applySync(undefined, []);
  disarmSlice();
  await new Promise((r) => setTimeout(r, 10));
  expect(
    'an unguarded call after a deadline passed unarmed',
    `returned ${String(small.applySync(undefined, []))}`,
    'returned 19900',
  );

  const ways: Record<string, () => unknown> = {
    'no bound': () => small.applySync(undefined, []),
    'isolated-vm timeout: 2': () => small.applySync(undefined, [], { timeout: 2 }),
    'watchdog, 2 ms': () => {
      armSlice(watched, 2);
      try {
        return small.applySync(undefined, []);
      } finally {
        disarmSlice();
      }
    },
  };
  console.log(
    `\nprocess CPU µs per call less the gap, median of ${o.rounds} rounds of ${o.calls} calls (watchdog wake-ups per 1,000 calls)`,
  );
  console.log(`| gap between calls | ${Object.keys(ways).join(' | ')} |`);
  console.log(
    `|---|${Object.keys(ways)
      .map(() => '---:')
      .join('|')}|`,
  );
  for (const gap of [0, 30, 200]) {
    const cpu = new Map<string, number[]>();
    const wakes = new Map<string, number[]>();
    for (let r = 0; r < o.rounds; r++)
      for (const [name, call] of Object.entries(ways)) {
        const w0 = watchdogWakes();
        const c0 = process.cpuUsage();
        for (let i = 0; i < o.calls; i++) {
          try {
            call();
          } catch {
            // A wall-clock bound may cut a call that the machine descheduled; it is timed all the same.
          }
          if (gap) spin(gap);
        }
        const c = process.cpuUsage(c0);
        cpu.set(name, [...(cpu.get(name) ?? []), (c.user + c.system) / o.calls - gap]);
        wakes.set(name, [...(wakes.get(name) ?? []), ((watchdogWakes() - w0) * 1000) / o.calls]);
      }
    const med = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const cells = Object.keys(ways).map((k) =>
      k.startsWith('watchdog')
        ? `${med(cpu.get(k)!).toFixed(2)} (${med(wakes.get(k)!).toFixed(1)})`
        : med(cpu.get(k)!).toFixed(2),
    );
    console.log(`| ${gap} µs | ${cells.join(' | ')} |`);
  }
  unwatch(watched);
  isolate.dispose();
  return failed ? 1 : 0;
}

runBench('bench:watchdog', HELP, parseArgs, main);

/**
 * The fourth review's attacks on host work that outlives its render (docs/security.md CPU-11):
 * the wall clock and a cancel end the render, and the render's AbortSignal (D152) must end what
 * the host still does for it, in the embedder's adapters and in the egress guard's connections.
 */
import { createEngine } from '../../engine.js';
import type { HostAdapters } from '../../host-api/host.js';
import { currentRenderSignal } from '../../host-api/render-signal.js';
import { withAdapters } from '../../host-api/resolve.js';
import { harnessHttp } from '../host/http.js';
import type { HarnessContext, Outcome, SecurityCase } from '../types.js';
import { judge, within } from './helpers.js';

/** How long the host work may go on after its render ended before the case calls it an escape. */
const GRACE_MS = 3000;

/**
 * An adapter whose calls take `callMs` (forever when 0) unless their render's signal aborts:
 * it counts the calls, those that started after their render ended, and those its signal ended.
 */
function slowSecrets(callMs: number) {
  const seen = { started: 0, afterEnd: 0, aborted: 0, reasons: new Set<string>(), renderEnded: false };
  const secrets: HostAdapters['secrets'] = {
    get(): Promise<{ value: string }> {
      seen.started++;
      if (seen.renderEnded) seen.afterEnd++;
      const signal = currentRenderSignal();
      return new Promise((resolve, reject) => {
        const t = callMs > 0 ? setTimeout(() => resolve({ value: 'v' }), callMs) : undefined;
        signal?.addEventListener(
          'abort',
          () => {
            clearTimeout(t);
            seen.aborted++;
            seen.reasons.add(String((signal.reason as { code?: string } | undefined)?.code));
            reject(signal.reason as Error);
          },
          { once: true },
        );
      });
    },
  };
  return { seen, secrets };
}

/** Reasons the render's signal may carry when its deadline ends it: its own timer or the render's end. */
const ENDED = ['E_WALL_TIMEOUT', 'E_BRIDGE_CLOSED'];

async function adapterEndsWithTheWallClock(h: HarnessContext): Promise<Outcome | null> {
  // One call that never answers, then many that take 50 ms each: the deadline ends both kinds.
  for (const callMs of [0, 50]) {
    const what = `${callMs ? 'many 50 ms adapter calls' : 'an adapter call that never answers'}: E_WALL_TIMEOUT`;
    const { seen, secrets } = slowSecrets(callMs);
    const e = createEngine({
      host: withAdapters(h.host, { secrets }),
      limits: { wallMs: 500, cpuMs: 1000 },
      timezone: 'Asia/Tokyo',
    });
    try {
      // The first render starts the worker and the isolate: not part of the 500 ms under test.
      await e.render('{$x}', { vars: { x: 1 } }).catch(() => undefined);
      const r = await h.render('{section name=i loop=10000}{secret var=s key="K"}{/section}', { engine: e });
      seen.renderEnded = true;
      if (r.code !== 'E_WALL_TIMEOUT') return judge(h, r, false, what);
      // The call pending at the deadline (always, for the one that never answers) is told to stop.
      if (callMs === 0 && !(await within(GRACE_MS, () => seen.aborted === 1)))
        return { status: 'escaped', detail: `${what}, but the pending call's signal never aborted` };
      const odd = [...seen.reasons].filter((x) => !ENDED.includes(x));
      if (odd.length) return { status: 'escaped', detail: `${what}, but a call's signal ended with ${odd.join(',')}` };
      // Each call was started by the template, none after its render ended.
      await new Promise((r) => setTimeout(r, 200));
      if (seen.afterEnd > 0)
        return { status: 'escaped', detail: `${what}, but ${seen.afterEnd} adapter calls started after it` };
    } finally {
      await e.close();
    }
  }
  return null;
}

export const CPU_MORE: SecurityCase[] = [
  {
    id: 'CPU-11',
    category: 'CPU',
    title: "host work ends with its render: the wall clock and a cancel abort the adapters' calls and connections",
    async run(h) {
      const bad = await adapterEndsWithTheWallClock(h);
      if (bad) return bad;
      // A request through the real egress guard that would drip for 30 s: cancelled after 300 ms.
      const s = harnessHttp();
      const before = s.openDrips();
      const cancel = new AbortController();
      setTimeout(() => cancel.abort(), 300);
      const t0 = performance.now();
      const r = await h.render('{api endpoint=$u timeout=30 status_var=s}{$s}', {
        vars: { u: `http://api.example.com:${s.port}/drip` },
        signal: cancel.signal,
      });
      const ended = performance.now();
      if (r.code !== 'E_CANCELLED') return judge(h, r, false, 'the cancelled render ends E_CANCELLED');
      if (!(await within(GRACE_MS, () => s.openDrips() === before)))
        return {
          status: 'escaped',
          detail: `the cancelled render's HTTP request was still open ${GRACE_MS} ms after the render ended`,
        };
      return {
        status: 'contained',
        detail:
          'E_WALL_TIMEOUT stopped a pending and a repeated adapter call (their signals aborted, no call after the end); a cancel closed a dripping HTTP connection',
        figures: { cancelMs: Math.round(ended - t0), closedAfterMs: Math.round(performance.now() - ended) },
      };
    },
  },
];

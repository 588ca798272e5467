/**
 * `smartcage serve --processes N` on node:cluster: a primary that serves nothing itself and N
 * children that share the port (the primary accepts and hands connections round-robin, so a child
 * that dies loses only the requests it holds).
 *
 * - A child that dies is started again after a backoff: 100 ms, doubling to 10 s for a slot whose
 *   children keep dying, back to 100 ms once one stayed up 30 s (Backoff).
 * - A child that exits before it listens (a site it cannot open, the port taken) is a start-up
 *   failure, not a crash: the primary stops the others and exits with that child's status (the
 *   child has said why in one line).
 * - SIGTERM/SIGINT to the primary: each child is told to drain (a message, not a signal: a
 *   Ctrl-C also reaches every child of the terminal's process group, and the two must count as
 *   one stop); the primary exits when all are gone, 0 when every child drained, 5 when any cut
 *   requests. A second signal tells them to stop at once.
 * - The primary dies (even by SIGKILL): node:cluster's children exit when their IPC channel to
 *   it closes; their sandbox workers end with them (their socket closes).
 *
 * The first child starts alone; when it listens the primary prints the address line (once) and
 * starts the others.
 *
 * With `affinity` (`serve --sites`, D226) the primary listens itself and hands each connection to
 * the child that owns the site its first request names (affinity.ts); the children listen on
 * nothing and take the connections it sends them (`primaryConnections`). Without it node:cluster
 * hands connections round-robin.
 */
import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { createServer, Socket } from 'node:net';
import { availableParallelism } from 'node:os';
import type { StopRequest } from './stop.js';
import { boundPort } from '../../http/port.js';
import { bySite, listenFront, type Front, type LiveChild, type RouteKey } from './affinity.js';

/** Messages between the primary and a child, over the cluster's IPC channel. */
type ToPrimary =
  | { type: 'smartcage:listening'; url: string; port: number; metrics?: string }
  | { type: 'smartcage:metrics'; id: number };
type ToChild =
  | { type: 'smartcage:stop'; kind: StopRequest }
  /** A connection, sent with the message; `head`: what the primary read of it, base64. */
  | { type: 'smartcage:connection'; head: string }
  /** The slots of the children up now and the receiver's own (reroute.ts: which sites it owns). */
  | { type: 'smartcage:owners'; slots: number[]; self: number }
  | { type: 'smartcage:metrics'; id: number; text?: string; error?: string };

/** How long a child waits for the primary's sum of every child's metrics. */
const CLUSTER_METRICS_MS = 5000;
let metricsAsked = 0;
const metricsWaiting = new Map<number, { resolve(text: string): void; reject(e: Error): void }>();

/**
 * In a child: the metrics of every child, summed by the primary (prom-client's AggregatorRegistry
 * asks each child for its registry), so a scrape that reaches any child sees the whole server.
 * `registry` is this child's, handed to prom-client for the primary's requests.
 */
export async function clusterMetrics(registry: import('prom-client').Registry): Promise<() => Promise<string>> {
  const { AggregatorRegistry } = await import('prom-client');
  // Constructed once in a child, it answers the primary's requests with the registries set here.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  process.on('message', (m: ToChild) => {
    if (m?.type !== 'smartcage:metrics') return;
    const w = metricsWaiting.get(m.id);
    metricsWaiting.delete(m.id);
    if (m.text !== undefined) w?.resolve(m.text);
    else w?.reject(new Error(m.error ?? 'no metrics'));
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = ++metricsAsked;
      const timer = setTimeout(() => {
        metricsWaiting.delete(id);
        reject(new Error('the primary did not answer with the metrics in time'));
      }, CLUSTER_METRICS_MS);
      metricsWaiting.set(id, {
        resolve: (t) => (clearTimeout(timer), resolve(t)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      const ask: ToPrimary = { type: 'smartcage:metrics', id };
      process.send?.(ask);
    });
}

/** In the primary: every child's metrics summed, for the child that asked. */
let aggregator: Promise<{ clusterMetrics(): Promise<string> }> | null = null;
function answerMetrics(w: Worker, id: number): void {
  aggregator ??= import('prom-client').then(({ AggregatorRegistry }) => new AggregatorRegistry());
  void aggregator
    .then((a) => a.clusterMetrics())
    .then(
      (text) => ({ type: 'smartcage:metrics', id, text }) as ToChild,
      (e: unknown) => ({ type: 'smartcage:metrics', id, error: (e as Error).message }) as ToChild,
    )
    .then((m) => {
      if (w.isConnected()) w.send(m);
    });
}

const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 10_000;
/** A child up this long is healthy: its slot's backoff starts over. */
export const HEALTHY_AFTER_MS = 30_000;

/** The wait before a slot's next child, from how long the last one lived. */
export class Backoff {
  private fails = 0;
  next(livedMs: number): number {
    if (livedMs >= HEALTHY_AFTER_MS) this.fails = 0;
    const ms = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** this.fails);
    this.fails++;
    return ms;
  }
}

/**
 * The port the primary chose for its children when the options say 0: the children would share
 * node:cluster's random port only while one of them holds it, and a child started after all had
 * died (or before the first listened) would get another.
 */
const CHILD_PORT = 'SMARTCAGE_SERVE_CHILD_PORT';

/** Set in a child whose primary listens itself and sends it connections (affinity). */
const HANDED = 'SMARTCAGE_SERVE_HANDED_CONNECTIONS';
/** The primary's random token, set with HANDED: it marks a request one child passed to the owner (reroute.ts). */
const REROUTE_TOKEN = 'SMARTCAGE_SERVE_REROUTE_TOKEN';

/** In a child: the port the primary chose, if it chose one. */
export function childPort(): number | undefined {
  const v = cluster.isWorker ? process.env[CHILD_PORT] : undefined;
  return v ? Number(v) : undefined;
}

/** A port free on `host` now. */
async function freePort(host: string): Promise<number> {
  const probe = createServer();
  await new Promise<void>((ok, fail) => {
    probe.once('error', fail);
    probe.listen(0, host, () => ok());
  });
  const port = boundPort(probe);
  await new Promise((ok) => probe.close(ok));
  return port;
}

/**
 * How many processes to run (D151): the option, or by default one per core with --sites and 1
 * otherwise. node:cluster forks the script the process was started with; a process started
 * without one (`node -e`, as an embedder or a test may run the CLI) serves alone by default, and
 * an explicit N > 1 there is this message.
 */
export function processCount(option: number | 'auto' | undefined, multiSite: boolean): number | string {
  const n = option === 'auto' || (option === undefined && multiSite) ? availableParallelism() : (option ?? 1);
  if (n > 1 && !process.argv[1]) {
    if (option === undefined) return 1;
    return `--processes ${option} needs smartcage started from its script (bin/smartcage.js), not node -e`;
  }
  return n;
}

/** Whether this process can fork children of its own script (not `node -e`, which has none). */
export const canSupervise = (): boolean => Boolean(process.argv[1]);

/** True in a child the primary forked. */
export const isServeChild = (): boolean => cluster.isWorker;

/**
 * In a child of a primary that routes connections by site: a source of the connections it hands
 * over, each with the bytes it read of it (listen.ts `connections`); undefined in any other process.
 */
export function primaryConnections(): ((accept: (socket: Socket, bytes: Buffer) => void) => void) | undefined {
  if (!cluster.isWorker || process.env[HANDED] !== '1') return undefined;
  return (accept) =>
    process.on('message', (m: ToChild, handle: unknown) => {
      if (m?.type === 'smartcage:connection' && handle instanceof Socket) accept(handle, Buffer.from(m.head, 'base64'));
    });
}

/**
 * In a child of a primary that routes connections by site: what it needs to pass a request for a
 * site another child owns to that child (reroute.ts); undefined in any other process.
 * `owner.slots` follows the primary's messages (empty until the first: every site is served here).
 */
export function primaryOwners():
  { token: string; port: number; owner: { slots: readonly number[]; self: number } } | undefined {
  const token = process.env[REROUTE_TOKEN];
  const port = childPort();
  if (!cluster.isWorker || process.env[HANDED] !== '1' || !token || port === undefined) return undefined;
  const owner = { slots: [] as readonly number[], self: -1 };
  process.on('message', (m: ToChild) => {
    if (m?.type !== 'smartcage:owners') return;
    owner.slots = m.slots;
    owner.self = m.self;
  });
  return { token, port, owner };
}

/** In a child: tells the primary it listens (the primary prints the address line). */
export function announceListening(url: string, port: number, metrics?: string): void {
  const m: ToPrimary = { type: 'smartcage:listening', url, port, ...(metrics !== undefined ? { metrics } : {}) };
  process.send?.(m);
}

/** In a child: the primary's stop requests, for untilStopped (stop.ts). */
export function primaryStopRequests(stop: (kind: StopRequest, fromSignal: boolean) => void): void {
  process.on('message', (m: ToChild) => {
    if (m?.type === 'smartcage:stop') stop(m.kind, false);
  });
}

/** In a child that has stopped: the IPC channel no longer keeps it alive, so it exits with its status. */
export function releasePrimary(): void {
  process.channel?.unref();
}

export interface PrimaryOptions {
  count: number;
  host: string;
  /** 0: the primary picks a free port once, for every child it ever starts. */
  port: number;
  /** What to print once the first child listens (`metrics`: where its metrics are, if it keeps any). */
  addressLines(url: string, port: number, metrics?: string): string[];
  /** Exit status when a child cut requests while stopping. */
  cutStatus: number;
  /** The primary listens and sends each connection to the child that owns its site (affinity.ts). */
  affinity?: boolean;
  /** What a site is routed by, with `affinity` (bySite unless sites share isolates by group, D343). */
  routeKey?: RouteKey;
  /** Called on SIGHUP before the children are told: what the primary reads again itself (the groups). */
  onHangup?: () => void;
}

/** Sends a connection and what was read of it to a child; a child that went meanwhile loses it. */
function handTo(w: Worker, socket: Socket, bytes: Buffer): void {
  const m: ToChild = { type: 'smartcage:connection', head: bytes.toString('base64') };
  w.send(m, socket, (e: Error | null) => {
    if (e) socket.destroy();
  });
}

/** Runs the primary until every child is gone; its exit status. */
export async function runPrimary(opts: PrimaryOptions): Promise<number> {
  const slots = Array.from({ length: opts.count }, () => ({
    backoff: new Backoff(),
    worker: null as Worker | null,
    startedAt: 0,
    listening: false,
    timer: undefined as NodeJS.Timeout | undefined,
  }));
  // The children that can take a connection now, by slot.
  const live = (): LiveChild[] => {
    const out: LiveChild[] = [];
    slots.forEach((s, slot) => {
      const w = s.worker;
      if (w && s.listening && w.isConnected()) out.push({ slot, hand: (socket, bytes) => handTo(w, socket, bytes) });
    });
    return out;
  };
  // Every child up learns who is up, so each knows the sites it owns (reroute.ts).
  const tellOwners = () => {
    if (!opts.affinity) return;
    const up = live().map((c) => c.slot);
    for (const slot of up) {
      const w = slots[slot]!.worker!;
      const m: ToChild = { type: 'smartcage:owners', slots: up, self: slot };
      w.send(m);
    }
  };
  let front: Front | null = null;
  let env: Record<string, string> = {};
  if (opts.affinity) {
    front = await listenFront(opts.host, opts.port, live, opts.routeKey ?? bySite, (line) =>
      process.stderr.write(`smartcage serve: ${line}\n`),
    );
    env = { [CHILD_PORT]: String(front.port), [HANDED]: '1', [REROUTE_TOKEN]: randomBytes(18).toString('base64url') };
  } else if (opts.port === 0) env = { [CHILD_PORT]: String(await freePort(opts.host)) };
  return new Promise((done) => {
    let announced = false;
    let allUp = false;
    let stopping: StopRequest | null = null;
    let status = 0;

    const tell = (w: Worker, kind: StopRequest) => {
      const m: ToChild = { type: 'smartcage:stop', kind };
      if (w.isConnected()) w.send(m);
    };
    const finishIfDone = () => {
      if (stopping && slots.every((s) => s.worker === null)) {
        off();
        done(status);
      }
    };
    const stop = (kind: StopRequest) => {
      stopping = kind;
      // No connection is handed over after this: each child gets its last one before the stop.
      front?.close();
      for (const s of slots) {
        clearTimeout(s.timer);
        if (s.worker) tell(s.worker, kind);
      }
      finishIfDone();
    };
    const fork = (i: number) => {
      const slot = slots[i]!;
      const w = cluster.fork(env);
      slot.worker = w;
      slot.startedAt = Date.now();
      slot.listening = false;
      w.on('message', (m: ToPrimary) => {
        if (m?.type === 'smartcage:metrics') return answerMetrics(w, m.id);
        if (m?.type !== 'smartcage:listening') return;
        slot.listening = true;
        if (stopping) tell(w, stopping);
        else tellOwners();
        if (!announced) {
          announced = true;
          process.stdout.write(`${opts.addressLines(m.url, m.port, m.metrics).join('\n')}\n`);
          // The others start once the first listens: a start that fails (the port taken) fails once.
          for (let j = 1; j < opts.count; j++) fork(j);
        }
        if (!allUp && slots.every((x) => x.listening)) {
          allUp = true;
          process.stderr.write(`smartcage serve: ${opts.count} process${opts.count === 1 ? '' : 'es'} listening\n`);
        }
      });
      w.on('exit', (code, signal) => {
        slot.worker = null;
        if (!stopping) tellOwners();
        if (stopping) {
          if (code !== 0 && status === 0) status = code ?? opts.cutStatus;
          return finishIfDone();
        }
        if (!slot.listening && code !== null && code !== 0) {
          // Start-up failure: the child printed why; starting it again would print it again.
          status = code;
          return stop('now');
        }
        process.stderr.write(
          `smartcage serve: process ${w.process.pid} ${signal ? `was killed by ${signal}` : `exited with ${code}`}; starting another\n`,
        );
        slot.timer = setTimeout(() => fork(i), slot.backoff.next(Date.now() - slot.startedAt));
      });
    };
    const onSignal = () => stop(stopping ? 'now' : 'drain');
    // SIGHUP (reread every site.json, add new site folders) is each child's to act on; the
    // primary reads again only what it routes by.
    const onHangup = () => {
      opts.onHangup?.();
      for (const s of slots) s.worker?.process.kill('SIGHUP');
    };
    const off = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGHUP', onHangup);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onHangup);
    fork(0);
  });
}

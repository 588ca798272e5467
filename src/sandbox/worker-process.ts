/**
 * One sandbox worker process as the pool sees it (src/sandbox/pool.ts): started with the flags its
 * isolates need, spoken to in frames over its fd 3 (src/sandbox/frames.ts), with its renders in
 * flight, what it last reported of its memory, and the template code it holds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { FailedAnswer, HostCallHandler } from '../protocol/host-call.js';
import type { CompiledTemplate, RenderResponse } from '../protocol/render.js';
import { readFromWorker, writeToWorker, type FromWorker, type ToWorker, type WireTemplate } from './worker-protocol.js';
import { FrameReader, FrameWriter, WireError } from './frames.js';
import type { IsolateCacheOptions, MemoryReport } from './isolate-cache.js';

/** A worker holds at most this much template code (it is told to forget it all beyond). */
const MAX_HELD_TEMPLATES = 500;
const MAX_HELD_CODE_CHARS = 32 * 1024 * 1024;
/**
 * The largest frame a worker may send beyond its outputs, bytes: an answer's head (warnings, logs,
 * the {return} value) and host call requests. An output adds up to 3 bytes of UTF-8 per character.
 */
const HEAD_SLACK_BYTES = 64 * 1024 * 1024;

export interface InFlight {
  tenant: string;
  resolve(r: RenderResponse): void;
  host: HostCallHandler;
  timer: NodeJS.Timeout;
}

export class WorkerProcess {
  readonly proc: ChildProcess;
  private readonly channel: Socket;
  private readonly writer: FrameWriter;
  readonly inflight = new Map<number, InFlight>();
  readonly ready: Promise<void>;
  exited = false;
  /** Resolves when the process has exited (after a `close`, once its isolates' work has settled). */
  readonly gone: Promise<void>;
  /** Its RSS when it started, MB (0 until it is ready). */
  startRssMB = 0;
  readonly startedAt = Date.now();
  /** Replaced by a fresh worker (recycled): its exit is no crash. */
  retired = false;
  /** A pending second look at recycling it (`SandboxPool.recycleIfBloated`). */
  recheck: NodeJS.Timeout | undefined;
  /** What the worker holds, as it last reported (with each answer, and after disposing isolates). */
  memory: MemoryReport = { heapMB: 0, bigIdleMB: 0, rssMB: 0, isolates: 0, evicted: 0 };
  /** Asked to dispose its idle big isolates and not answered yet. */
  evictAsked = false;
  /** The largest frame this worker may send now (grows with the output limits of its renders). */
  private maxFrameBytes = HEAD_SLACK_BYTES;
  /** The worker sent something that is not a frame of the protocol: nothing more it sends is read. */
  private broken = false;
  /** Keys of the template code this worker holds, and its size. */
  private readonly held = new Set<number>();
  private heldChars = 0;

  constructor(
    onExit: (w: WorkerProcess) => void,
    private readonly onMemory: (w: WorkerProcess) => void,
    isolates: IsolateCacheOptions,
  ) {
    const ts = import.meta.url.endsWith('.ts');
    const entry = fileURLToPath(new URL(`./worker-main.${ts ? 'ts' : 'js'}`, import.meta.url));
    // fd 3 is a socket pair: length-prefixed frames both ways (src/sandbox/frames.ts), not Node's IPC
    // channel. --single-threaded-gc: the isolates' scavenges run on the thread that renders instead of
    // waking helper threads on cores the other worker is using (worker CPU per render of the
    // benchmark page ~730 -> ~670 µs, three alternating runs; docs/decisions.md D118).
    // --max-semi-space-size=1: each isolate's young generation stays at V8's least (two 1 MB
    // semispaces) instead of growing to 16 MB ones: ~0.9 MB less per warm tenant, and a young
    // generation that stays in cache renders faster (D120).
    // --expose-gc: the runtime takes V8's `gc` from each context's global (leaving the name undefined)
    // for the collection an idle isolate gets (`isolateReduceAfterMs`, D121).
    this.proc = spawn(
      process.execPath,
      [
        '--no-node-snapshot',
        '--single-threaded-gc',
        '--max-semi-space-size=1',
        '--expose-gc',
        ...(ts ? ['--import', 'tsx'] : []),
        entry,
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      },
    );
    this.channel = this.proc.stdio[3] as Socket;
    this.writer = new FrameWriter(this.channel);
    // A worker's own diagnostics never reach tenants; keep stderr drained.
    this.proc.stderr?.resume();
    let ready: () => void = () => {};
    this.ready = new Promise((resolve) => (ready = resolve));
    const reader = new FrameReader(
      (head, body) => {
        const m = readFromWorker(head, body);
        if (m.type === 'ready') {
          this.startRssMB = m.rssMB;
          ready();
        } else this.onMessage(m);
      },
      () => this.maxFrameBytes,
    );
    this.channel.on('data', (chunk: Buffer) => {
      if (this.broken) return;
      try {
        reader.push(chunk);
      } catch (e) {
        if (!(e instanceof WireError)) throw e;
        // The worker's side is the sandbox's: a message that is not one of the protocol means it is
        // not the worker we started. Its renders fail as crashed (the pool's exit handler).
        this.broken = true;
        this.kill();
      }
    });
    // The worker's end closes when it dies; its exit is what counts.
    this.channel.on('error', () => {});
    // Queued ahead of any render: the worker's isolates live by these rules from the start.
    this.send({ type: 'configure', isolates });
    let exited = (): void => {};
    this.gone = new Promise((resolve) => (exited = resolve));
    this.proc.on('exit', () => {
      this.exited = true;
      exited();
      // Renders waiting for a worker that died before it was ready go on (and fail: the pool looks at `exited`).
      ready();
      onExit(this);
    });
  }

  /** Whether messages can still reach the worker. */
  get open(): boolean {
    return !this.exited && this.channel.writable;
  }

  private onMessage(m: FromWorker): void {
    if (m.type === 'result') {
      if (m.memory) this.setMemory(m.memory);
      const f = this.inflight.get(m.id);
      if (!f) return;
      clearTimeout(f.timer);
      this.inflight.delete(m.id);
      f.resolve(m.result);
    } else if (m.type === 'memory') {
      this.setMemory(m.memory);
    } else if (m.type === 'host') {
      const f = this.inflight.get(m.renderId);
      // The bridge answers every failure as a code and never rejects; were it to, the isolate would
      // still get an answer instead of waiting for its deadline.
      const failed = (message: string): string =>
        JSON.stringify({ ok: false, error: { code: 'E_SANDBOX_CRASHED', message } } satisfies FailedAnswer);
      const answer = f
        ? f.host(m.plugin, m.request).catch(() => failed('the host call failed'))
        : Promise.resolve(failed('no such render'));
      void answer.then((a) => {
        // The render may be long gone (deadline) and the worker shut down meanwhile.
        if (this.open) this.send({ type: 'hostAnswer', callId: m.callId, answer: a });
      });
    }
  }

  private setMemory(memory: MemoryReport): void {
    this.memory = memory;
    this.evictAsked = false;
    this.onMemory(this);
  }

  send(m: ToWorker): void {
    if (m.type === 'render')
      this.maxFrameBytes = Math.max(this.maxFrameBytes, HEAD_SLACK_BYTES + 3 * m.limits.maxOutputChars);
    writeToWorker(this.writer, m);
  }

  /** Asks the worker to finish: it exits when its end of the channel closes. */
  close(): void {
    this.writer.flush();
    this.channel.end();
  }

  /**
   * The template as this worker needs it: without its code when the worker holds it already.
   * Messages arrive in order, so a `forgetTemplates` sent here reaches the worker before the
   * render that carries the code again.
   */
  wire(template: CompiledTemplate, key: number): WireTemplate {
    const { code, ...rest } = template;
    if (this.held.has(key)) return { ...rest, key };
    if (this.held.size >= MAX_HELD_TEMPLATES || this.heldChars + code.length > MAX_HELD_CODE_CHARS) {
      this.send({ type: 'forgetTemplates' });
      this.held.clear();
      this.heldChars = 0;
    }
    this.held.add(key);
    this.heldChars += code.length;
    return { ...rest, key, code };
  }

  kill(): void {
    if (!this.exited) this.proc.kill('SIGKILL');
  }
}

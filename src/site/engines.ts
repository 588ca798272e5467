/**
 * The engines a site renders with: one per depth of internal API requests. A render waiting on
 * {api_internal} holds its tenant's isolate (and the engine lets one render of a tenant run at a
 * time), so the endpoint it calls must run in another engine, and a call from there in a third:
 * depth d renders with engine d. Each is made on first use (a sandbox worker process each) and
 * closed with the site. The site owns them, so its adapters and its engines, which need each
 * other, are made without a cycle: the options are read when an engine is first made.
 */
import { createEngine, type Engine, type EngineOptions, type EngineStats } from '../index.js';

/** Internal requests nest at most this deep below a request from outside. */
export const MAX_INTERNAL_DEPTH = 3;

export class SiteEngines {
  private readonly made: (Engine | undefined)[] = [];
  private readonly own = new Map<string, Engine>();

  /** `options` is called when an engine is first made; `overrides` (a fixed clock in tests...) go on top. */
  constructor(
    private readonly options: () => EngineOptions,
    private readonly overrides: Partial<EngineOptions> = {},
  ) {}

  /** The engine of requests `depth` deep (0: from outside; at most MAX_INTERNAL_DEPTH). */
  at(depth: number): Engine {
    if (!Number.isInteger(depth) || depth < 0 || depth > MAX_INTERNAL_DEPTH) throw new RangeError(`no engine at depth ${depth}`);
    let e = this.made[depth];
    if (!e) {
      e = createEngine({ workers: 1, ...this.options(), ...this.overrides });
      this.made[depth] = e;
    }
    return e;
  }

  /**
   * An engine of its own for `purpose` (the mail templates' renders, which run while a render
   * of the site waits on {sendmail}), made on first use from the site's options changed by
   * `adjust`, closed with the others.
   */
  for(purpose: string, adjust: (options: EngineOptions) => EngineOptions): Engine {
    let e = this.own.get(purpose);
    if (!e) {
      e = createEngine(adjust({ workers: 1, ...this.options(), ...this.overrides }));
      this.own.set(purpose, e);
    }
    return e;
  }

  /** What each engine made so far holds (for metrics; makes none). */
  stats(): EngineStats[] {
    return [...this.made, ...this.own.values()].filter((e) => e !== undefined).map((e) => e.stats());
  }

  close(): void {
    for (const e of this.made.splice(0)) e?.close();
    for (const e of this.own.values()) e.close();
    this.own.clear();
  }
}

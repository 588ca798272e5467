/**
 * The engines sites render with, shared by every site attached to them: one per depth of internal
 * API requests, and one per purpose (the mail templates). A render waiting on {api_internal}
 * holds its tenant's isolate (and the engine lets one render of a tenant run at a time), so the
 * endpoint it calls must run in another engine, and a call from there in a third: depth d renders
 * with engine d. Each engine is made on first use (a sandbox worker process each).
 *
 * The engines know no site of their own: each render finds its site by its tenant (the site key)
 * among the attached ones, for its templates and custom functions (the engine's lookups get the
 * render's identity) and for its time zone, language, root URL, constants and adapters
 * (EngineOptions.tenant). So `serve --sites` with 1,000 sites runs one set of engines, and a site
 * opened alone (`render --site`, tests) attaches to a set of its own.
 */
import { createEngine, type Engine, type EngineOptions, type TenantSettings, type EngineStats } from '../index.js';

/** Sandbox worker processes of each engine unless the options say otherwise (`serve --sandbox-workers`). */
export const SITE_ENGINE_WORKERS = 1;

/** Internal requests nest at most this deep below a request from outside. */
export const MAX_INTERNAL_DEPTH = 3;

/** What the engines need of one attached site. */
export interface TenantSite {
  /** templates/NAME, or undefined. */
  template(name: string): string | undefined;
  /** functions/NAME.tpl, or undefined. */
  customFunction(name: string): string | undefined;
  /** Time zone, language, root URL, constants and adapters of the site's renders. */
  readonly settings: TenantSettings;
}

export class SiteEngines {
  private readonly made: (Engine | undefined)[] = [];
  private readonly own = new Map<string, Engine>();
  private readonly sites = new Map<string, TenantSite>();

  /** `overrides` (a fixed clock in tests, limits...) go on top of the options of every engine. */
  constructor(private readonly overrides: Partial<EngineOptions> = {}) {}

  /**
   * Renders for `tenant` find `site` from now until the returned detach is called, or until the
   * site is attached again, reopened with a new site.json (renders begun before keep what they
   * found: a render resolves its site once, when it starts).
   */
  attach(tenant: string, site: TenantSite): () => void {
    this.sites.set(tenant, site);
    return () => {
      if (this.sites.get(tenant) === site) this.sites.delete(tenant);
    };
  }

  attached(tenant: string): boolean {
    return this.sites.has(tenant);
  }

  private options(): EngineOptions {
    const site = (tenant: string): TenantSite => {
      const s = this.sites.get(tenant);
      // Only a render of a site that closed meanwhile gets here: it fails E_INTERNAL.
      if (!s) throw new Error(`no open site has the site key "${tenant}"`);
      return s;
    };
    return {
      workers: SITE_ENGINE_WORKERS,
      templates: (name, identity) => this.sites.get(identity.tenant)?.template(name),
      functions: (name, identity) => this.sites.get(identity.tenant)?.customFunction(name),
      tenant: (identity) => site(identity.tenant).settings,
      ...this.overrides,
    };
  }

  /** The engine of requests `depth` deep (0: from outside; at most MAX_INTERNAL_DEPTH). */
  at(depth: number): Engine {
    if (!Number.isInteger(depth) || depth < 0 || depth > MAX_INTERNAL_DEPTH)
      throw new RangeError(`no engine at depth ${depth}`);
    let e = this.made[depth];
    if (!e) {
      e = createEngine(this.options());
      this.made[depth] = e;
    }
    return e;
  }

  /**
   * An engine of its own for `purpose` (the mail templates' renders, which run while a render
   * of the site waits on {sendmail}), made on first use from the options changed by `adjust`,
   * closed with the others.
   */
  for(purpose: string, adjust: (options: EngineOptions) => EngineOptions): Engine {
    let e = this.own.get(purpose);
    if (!e) {
      e = createEngine(adjust(this.options()));
      this.own.set(purpose, e);
    }
    return e;
  }

  /** Process ids of the engines' sandbox workers. */
  pids(): number[] {
    return [...this.made, ...this.own.values()].flatMap((e) => e?.pids() ?? []);
  }

  /** What each engine made so far holds (for metrics; makes none). */
  stats(): EngineStats[] {
    return [...this.made, ...this.own.values()].filter((e) => e !== undefined).map((e) => e.stats());
  }

  /** Closes every engine made; resolves once they have all ended (Engine.close). */
  async close(): Promise<void> {
    const engines = [...this.made.splice(0), ...this.own.values()];
    this.own.clear();
    await Promise.all(engines.map((e) => e?.close()));
  }
}

/**
 * The engine's compiled templates: where a render's template is compiled, and the cache that
 * reuses the result while the template and everything it includes are unchanged.
 *
 * - A cache hit is synchronous: it never touches the compile thread.
 * - A small template (INLINE_MAX_CHARS, includes counted) compiles inline: its compile is
 *   cheaper than the trip to the thread. Anything larger compiles on the compile thread
 *   (src/compiler/thread.ts), so the embedding event loop keeps serving other renders.
 * - Included templates and custom functions are looked up with the render's identity, and
 *   with a lookup function the cache is kept per tenant: one tenant never gets a compile whose
 *   includes were resolved for another.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import {
  compile,
  firstError,
  CompileAborted,
  ENGINE_VERSION,
  type CompileResult,
  type Manifest,
} from './compiler/index.js';
import { CompileThread, type ThreadResult } from './compiler/thread.js';
import { SourceText, type Diagnostic } from './errors.js';
import type { RenderIdentity } from './host-api/host.js';
import type { CompiledTemplate } from './protocol/render.js';
import type { SandboxLimits } from './sandbox/limits.js';
import type { PluginData, PluginSet } from './plugins/plugin-set.js';

/**
 * A stored template or custom function by name, for the render of `identity`; undefined or
 * null when there is none. An engine that serves several tenants answers per tenant.
 */
export type SourceLookup = (key: string, identity: RenderIdentity) => string | undefined | null;

/** Stored templates or custom functions: a Record shared by every tenant, or a lookup. */
export type Sources = Record<string, string> | SourceLookup;

type Kind = 'template' | 'function';

/**
 * Templates up to this many characters, their includes counted, compile on the embedding
 * thread. Measured: the trip to the thread and back costs 0.1-0.2 ms on an idle machine (a few
 * ms when every core is busy), about what a 1 KB template's compile costs; 4 KB of dense tags
 * compile in 1-1.5 ms, 16 KB in 4-17 ms. Up to 4 KB the loop stalls a couple of ms at most.
 */
export const INLINE_MAX_CHARS = 4096;

export interface Compiled {
  /** Key of the template in the isolate: name and source hash (the code may change with its includes). */
  id: string;
  manifest: Omit<Manifest, 'lineTable'>;
  diagnostics: Diagnostic[];
  /** The line table, 4 numbers per entry: generated line, template index, template line, column. */
  lineTable: Int32Array;
  sources: SourceText[];
  /** Included templates and functions with the source compiled in (null: it did not exist). */
  deps: Dep[];
  /** What the sandbox runs; one object per compile, by which a worker keeps the code it was sent. */
  template: CompiledTemplate;
}

type Dep = readonly [Kind, string, string | null];

/** An engine's own plugins as its compiles need them (src/engine-plugins.ts). */
export interface CompilePlugins {
  set: PluginSet;
  /** The same declarations as data, for the compile thread. */
  data: readonly PluginData[];
  /** Identifies the declarations: part of a compiled template's key, so code never outlives the plugins it was compiled for. */
  digest: string;
}

/** The inline compile grew past INLINE_MAX_CHARS through its includes: it goes to the thread. */
class TooBigInline extends CompileAborted {}

/** The embedder's lookup threw `error`: the compile stops, and the render fails with it (engine: E_INTERNAL, its cause). */
class LookupFailed extends CompileAborted {
  constructor(readonly error: unknown) {
    super('a template lookup failed');
  }
}

export class CompiledTemplates {
  private readonly cache = new LRUCache<string, Compiled>({
    max: 500,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (c) =>
      c.template.code.length * 2 + c.lineTable.byteLength + c.sources.reduce((n, x) => n + x.text.length * 2, 0) + 1,
  });
  /** Compiles on the thread, by cache key: renders of the same new template wait for one compile. */
  private readonly compiling = new Map<string, Promise<Compiled>>();
  private readonly thread: CompileThread;
  /** With a lookup function, what an include resolves to depends on the tenant. */
  private readonly perTenant: boolean;
  /** What a compiled template's key is made of besides its name and source: the engine version, and the engine's own plugins. */
  private readonly idPrefix: string;

  constructor(
    private readonly templates: Sources | undefined,
    private readonly functions: Sources | undefined,
    private readonly limits: SandboxLimits,
    private readonly plugins?: CompilePlugins,
    /** Smarty 2's default modifiers (EngineOptions.defaultModifiers), already checked; none by default. */
    private readonly defaultModifiers: readonly string[] = [],
  ) {
    this.perTenant = typeof templates === 'function' || typeof functions === 'function';
    this.thread = new CompileThread({
      timeoutMs: limits.compileMs,
      heapMB: COMPILE_THREAD_HEAP_MB,
      maxQueuedPerTenant: 8,
      maxQueued: 64,
      plugins: plugins?.data,
    });
    // Without plugins of its own an engine's keys are the built-in ones, unchanged.
    this.idPrefix = plugins ? `${ENGINE_VERSION}\0${plugins.digest}` : ENGINE_VERSION;
    // Nor do default modifiers change an engine's keys when it has none.
    if (defaultModifiers.length) this.idPrefix += `\0defaults\0${JSON.stringify(defaultModifiers)}`;
  }

  /** The compiled template for a render: synchronous on a cache hit and for a small template. */
  /**
   * `defaults`: the render's tenant's own default modifiers (EngineOptions.tenant), checked, in
   * place of the engine's; they are part of the key, so two tenants of one engine never share code
   * compiled with the other's.
   */
  get(
    source: string,
    name: string,
    identity: RenderIdentity,
    defaults: readonly string[] = this.defaultModifiers,
  ): Compiled | Promise<Compiled> {
    // Lengths first: no name or tenant can be made to read as another's.
    const scope = this.perTenant ? identity.tenant : '';
    const own = defaults === this.defaultModifiers || defaults.length === 0 ? '' : JSON.stringify(defaults);
    const key = `${scope.length}:${scope}${own.length}:${own}${name.length}:${name}${source}`;
    const hit = this.cache.get(key);
    if (hit && hit.deps.every(([kind, k, text]) => this.text(kind, k, identity) === text)) return hit;
    const prefix = own === '' ? this.idPrefix : `${this.idPrefix}\0tenant-defaults\0${own}`;
    const id = `${name}#${createHash('sha256').update(`${prefix}\0${name}\0${source}`).digest('hex').slice(0, 16)}`;
    if (source.length <= INLINE_MAX_CHARS) {
      const c = this.inline(source, name, id, identity, defaults);
      if (c) {
        this.cache.set(key, c);
        return c;
      }
    }
    let p = this.compiling.get(key);
    if (!p) {
      p = this.offThread(source, name, id, identity, defaults).then((c) => {
        this.cache.set(key, c);
        return c;
      });
      const done = () => this.compiling.delete(key);
      p.then(done, done);
      this.compiling.set(key, p);
    }
    return p;
  }

  /** engine.compile(): synchronous, on the calling thread, no cache (a tool's API). */
  compileNow(source: string, name: string | undefined, identity: RenderIdentity): CompileResult {
    return compile(source, {
      name,
      templates: (k) => this.text('template', k, identity),
      functions: (k) => this.text('function', k, identity),
      maxCodeChars: this.limits.maxCodeChars,
      maxSourceChars: this.limits.maxTemplateBytes,
      plugins: this.plugins?.set,
      defaultModifiers: this.defaultModifiers,
    });
  }

  /** Resolves once the compile thread has ended. */
  close(): Promise<void> {
    this.cache.clear();
    return this.thread.close();
  }

  private inline(
    source: string,
    name: string,
    id: string,
    identity: RenderIdentity,
    defaults: readonly string[],
  ): Compiled | null {
    const deps: Dep[] = [];
    let chars = source.length;
    const lookup = (kind: Kind, key: string): string | null => {
      let text: string | null;
      try {
        text = this.text(kind, key, identity);
      } catch (error) {
        throw new LookupFailed(error);
      }
      deps.push([kind, key, text]);
      chars += text?.length ?? 0;
      if (chars > INLINE_MAX_CHARS) throw new TooBigInline();
      return text;
    };
    let r: CompileResult;
    try {
      r = compile(source, {
        name,
        id,
        templates: (k) => lookup('template', k),
        functions: (k) => lookup('function', k),
        maxCodeChars: this.limits.maxCodeChars,
        maxSourceChars: this.limits.maxTemplateBytes,
        plugins: this.plugins?.set,
        defaultModifiers: defaults,
      });
    } catch (e) {
      if (e instanceof TooBigInline) return null;
      throw e instanceof LookupFailed ? e.error : e;
    }
    const table = new Int32Array(r.manifest.lineTable.length * 4);
    r.manifest.lineTable.forEach((e, i) => table.set(e, i * 4));
    return this.built(
      source,
      name,
      id,
      { code: r.code, manifest: r.manifest, lineTable: table, diagnostics: r.diagnostics },
      deps,
    );
  }

  private async offThread(
    source: string,
    name: string,
    id: string,
    identity: RenderIdentity,
    defaults: readonly string[],
  ): Promise<Compiled> {
    const deps: Dep[] = [];
    const lookup = (kind: Kind, key: string): string | null => {
      const text = this.text(kind, key, identity);
      deps.push([kind, key, text]);
      return text;
    };
    const work = {
      source,
      name,
      id,
      maxCodeChars: this.limits.maxCodeChars,
      maxSourceChars: this.limits.maxTemplateBytes,
      defaultModifiers: defaults,
    };
    const r = await this.thread.compile(identity.tenant, work, lookup);
    return this.built(source, name, id, r, deps);
  }

  /** A compile's result as the engine keeps it; a compile with an error throws it. */
  private built(source: string, name: string, id: string, r: ThreadResult, deps: Dep[]): Compiled {
    const err = firstError(r.diagnostics);
    if (err) throw err;
    // The compiled-in sources, in the order the compile met them (its manifest's template list).
    const included = deps.filter(
      (d): d is readonly [Kind, string, string] => d[2] !== null && d[2].length <= this.limits.maxTemplateBytes,
    );
    const sources = [
      new SourceText(name, source),
      ...included.map(([kind, key, text]) => new SourceText(kind === 'template' ? key : `function:${key}`, text)),
    ];
    if (sources.length !== r.manifest.templates.length)
      throw new Error('smartcage: the compile met its includes in another order than it looked them up');
    const { lineTable: _unused, ...manifest } = r.manifest;
    return {
      id,
      manifest,
      diagnostics: r.diagnostics,
      lineTable: r.lineTable,
      sources,
      deps,
      template: { id, code: r.code, filename: scriptName(id), hostFree: manifest.host.length === 0 },
    };
  }

  /** The stored template or function `key` for `identity`: a Record's own keys only. */
  private text(kind: Kind, key: string, identity: RenderIdentity): string | null {
    const from = kind === 'template' ? this.templates : this.functions;
    const v =
      typeof from === 'function' ? from(key, identity) : from && Object.hasOwn(from, key) ? from[key] : undefined;
    return typeof v === 'string' ? v : null;
  }
}

/**
 * Heap of the compile thread, MB: twice what the worst 1 MB template measured needs (96-128 MB,
 * mostly its syntax tree; the code cap stops the rest). Past it the thread dies alone and the
 * render gets E_TEMPLATE_TOO_LARGE.
 */
const COMPILE_THREAD_HEAP_MB = 256;

/** The file name the isolate knows the script by, which stack traces name. */
export function scriptName(id: string): string {
  return `tpl-${id.split('#')[1]}.js`;
}

/**
 * createEngine({ defaultModifiers }) checked once, before any worker starts: a list that does not
 * read as modifiers, or names a modifier the engine does not have, throws here rather than
 * failing every render. Returns the list to compile with (none: empty).
 */
export function checkedDefaultModifiers(list: unknown, plugins: PluginSet | undefined): readonly string[] {
  if (list === undefined) return [];
  if (!Array.isArray(list) || list.some((m) => typeof m !== 'string'))
    throw new TypeError(
      'smartcage: createEngine({ defaultModifiers }) takes a list of modifier strings, e.g. [\'escape:"html"\']',
    );
  const probe = compile('{$x}', { name: 'defaultModifiers', defaultModifiers: list as string[], plugins });
  const err = probe.diagnostics.find((d) => d.severity === 'error');
  if (err) throw new TypeError(`smartcage: createEngine({ defaultModifiers }): ${err.message}`);
  return Object.freeze([...(list as string[])]);
}

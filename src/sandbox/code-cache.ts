/**
 * V8's code cache for template scripts, shared by the isolates of this process: a template's
 * compiled JavaScript is parsed and compiled to bytecode once, and every other isolate that
 * defines the same code (a tenant's templates after the first of its isolate, a spare's warm-up
 * template) deserializes the bytecode instead. The page's script: 161 µs to compile, 44 µs from
 * the cache (docs/decisions.md D252). A tenant's first render on an isolate does not ask it: that
 * template compiles on the isolate's thread, with its define (D292).
 *
 * What keeps one tenant's data out of another's isolate:
 * - the key is the compiled code alone (the whole text, compared exactly), and the cache is made
 *   by an isolate that only compiles that text and never runs anything: bytecode and constants
 *   of the code, nothing a render computed;
 * - an entry is bound to its code by a SHA-256 of the code and the cache's bytes, checked before
 *   each use: V8 itself checks only the source's length, its version and its flags (the payload's
 *   checksum only in debug builds), so a cache of another text of the same length, or a corrupt
 *   one, would otherwise be taken. An entry that fails the check, or that V8 rejects, is dropped,
 *   and the script is compiled from its text as without a cache.
 *
 * The cache is made after a miss, in the background, by an isolate of its own that compiles and
 * never runs anything (`produceCachedData`): no tenant's isolate waits for it or holds its memory,
 * and it can hold nothing but the code.
 */
import { createHash } from 'node:crypto';
import ivm from 'isolated-vm';

/** isolated-vm sets these on the script (its typings name them only on the async variants). */
type CachingScript = ivm.Script & { cachedData?: ivm.ExternalCopy<ArrayBuffer>; cachedDataRejected?: boolean };

interface Entry {
  bytes: Uint8Array;
  /** SHA-256 of the code, a NUL and the bytes, taken when V8 made them. */
  digest: Buffer;
}

export interface CodeCacheStats {
  /** Compiles that used a cache entry. */
  hits: number;
  /** Compiles without one (the code not seen yet, or its entry still being made). */
  misses: number;
  /** Entries dropped at use: the digest did not match, or V8 rejected the data. */
  refused: number;
  entries: number;
  bytes: number;
}

const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
/** Compiling a template's code takes a few MB at most (a 97 KB script); the maker runs nothing. */
const MAKER_MEMORY_MB = 64;
const MAKER_IDLE_MS = 5000;

function digestOf(code: string, bytes: Uint8Array): Buffer {
  return createHash('sha256').update(code).update('\0').update(bytes).digest();
}

export class TemplateCodeCache {
  /** By code, least recently used first. */
  private readonly entries = new Map<string, Entry>();
  /** Codes whose entry is being made. */
  private readonly making = new Set<string>();
  private bytes = 0;
  private maker: ivm.Isolate | null = null;
  private makerTimer: NodeJS.Timeout | null = null;
  private readonly counts = { hits: 0, misses: 0, refused: 0 };

  /** `maxBytes`: the entries' bytes this cache holds at most (the page's entry is ~4 KB). */
  constructor(private readonly maxBytes = DEFAULT_MAX_BYTES) {}

  /** `code` compiled in `isolate`, from its cache entry when there is a sound one. */
  compile(isolate: ivm.Isolate, code: string, filename: string): ivm.Script {
    const entry = this.entries.get(code);
    if (entry) {
      this.entries.delete(code);
      if (digestOf(code, entry.bytes).equals(entry.digest)) {
        const data = new ivm.ExternalCopy(entry.bytes.buffer as ArrayBuffer);
        const script: CachingScript = isolate.compileScriptSync(code, { filename, cachedData: data });
        data.release();
        // Rejected, V8 compiled the text itself: the script is sound either way.
        if (!script.cachedDataRejected) {
          this.entries.set(code, entry);
          this.counts.hits++;
          return script;
        }
      }
      this.bytes -= entry.bytes.byteLength;
      this.counts.refused++;
      return compilePlain(isolate, code, filename);
    }
    this.counts.misses++;
    this.makeSoon(code, filename);
    return compilePlain(isolate, code, filename);
  }

  /**
   * Makes the entry of `code` in the maker isolate, on its own thread: the tenant's isolate neither
   * waits for it nor holds its memory. A failure leaves no entry: the next miss tries again.
   */
  private makeSoon(code: string, filename: string): void {
    if (this.making.has(code)) return;
    this.making.add(code);
    let maker: ivm.Isolate;
    try {
      maker = this.makerIsolate();
    } catch {
      this.making.delete(code);
      return;
    }
    maker
      .compileScript(code, { filename, produceCachedData: true })
      .then((s: CachingScript) => {
        const data = s.cachedData;
        s.release();
        if (!data) return;
        const bytes = new Uint8Array(data.copy());
        data.release();
        this.add(code, { bytes, digest: digestOf(code, bytes) });
      })
      .catch(() => undefined)
      .finally(() => {
        this.making.delete(code);
        this.retireMakerSoon();
      });
  }

  /**
   * The isolate that makes the entries: it compiles, never runs anything, and so holds nothing of
   * any tenant. Made at the first miss, disposed once idle for MAKER_IDLE_MS (~1.2 MB while it lives).
   */
  private makerIsolate(): ivm.Isolate {
    if (this.maker?.isDisposed === false) return this.maker;
    this.maker = new ivm.Isolate({ memoryLimit: MAKER_MEMORY_MB });
    return this.maker;
  }

  private retireMakerSoon(): void {
    if (this.making.size > 0) return;
    if (this.makerTimer) clearTimeout(this.makerTimer);
    this.makerTimer = setTimeout(() => {
      this.makerTimer = null;
      if (this.making.size > 0 || !this.maker) return;
      if (!this.maker.isDisposed) this.maker.dispose();
      this.maker = null;
    }, MAKER_IDLE_MS);
    this.makerTimer.unref();
  }

  /** Adds an entry (made here, or a test's), dropping the least recently used over `maxBytes`. */
  add(code: string, entry: Entry): void {
    if (entry.bytes.byteLength > this.maxBytes) return;
    // Whole buffers only: `compile` hands V8 the entry's ArrayBuffer.
    if (entry.bytes.byteOffset !== 0 || entry.bytes.byteLength !== entry.bytes.buffer.byteLength)
      entry = { ...entry, bytes: entry.bytes.slice() };
    const old = this.entries.get(code);
    if (old) {
      this.entries.delete(code);
      this.bytes -= old.bytes.byteLength;
    }
    this.entries.set(code, entry);
    this.bytes += entry.bytes.byteLength;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes.byteLength;
    }
  }

  /** The entry of `code`, if any (tests look at it, and corrupt it). */
  entry(code: string): Entry | undefined {
    return this.entries.get(code);
  }

  /** Resolves once the entries being made are in (tests). */
  async settled(): Promise<void> {
    while (this.making.size > 0) await new Promise((r) => setTimeout(r, 5));
  }

  stats(): CodeCacheStats {
    return { ...this.counts, entries: this.entries.size, bytes: this.bytes };
  }
}

function compilePlain(isolate: ivm.Isolate, code: string, filename: string): ivm.Script {
  return isolate.compileScriptSync(code, { filename });
}

/** The process's template code cache (every engine's and worker's isolates in it). */
export const templateCodeCache = new TemplateCodeCache();

/** Shared helpers for the utility plugin tests: seeded inputs, contexts, PHP literals. */
import { createHash } from 'node:crypto';
import type { FunctionPlugin, PluginContext } from '../../../src/plugins/types.js';
import { Random } from '../../../src/runtime/random.js';
import { toBytes } from '../../../src/value/bytes.js';
import { PhpFloat, type Value } from '../../../src/value/value.js';
import type { Scope } from '../../../src/value/assign.js';
import { phpFloatRepr } from '../../support/php-oracle.js';
import { TEST_NOW, testPluginContext } from '../../support/plugin-context.js';

export { TEST_NOW };

export interface Ctx extends PluginContext {
  scope: Scope;
  warnings: string[];
  logs: string[];
}

/** A plugin context with its own seed / time zone, collecting warnings and log lines. */
export function makeCtx(
  opts: { vars?: Record<string, Value>; seed?: number; timezone?: string; now?: number } = {},
): Ctx {
  const warnings: string[] = [];
  const logs: string[] = [];
  const base = testPluginContext(opts.vars ?? {}, { warnings, logs });
  const c: Ctx = Object.assign(base, {
    warnings,
    logs,
    site: { ...base.site, timezone: opts.timezone ?? base.site.timezone },
    now: opts.now ?? base.now,
  });
  if (opts.seed !== undefined) {
    const rng = new Random(seedBytes(opts.seed));
    c.random = () => rng.next();
  }
  return c;
}

/** 16 well-mixed seed bytes from a small number (the host passes random bytes; nearby numbers must not give related streams). */
function seedBytes(n: number): number[] {
  return Array.from(createHash('sha256').update(`seed ${n}`).digest().subarray(0, 16));
}

export function run(plugin: FunctionPlugin, attrs: Record<string, Value>, ctx: PluginContext): string | void {
  return plugin.run!({ __proto__: null, ...attrs } as Record<string, Value>, ctx);
}

/** PHP source that rebuilds a scalar exactly (strings travel as base64 of their bytes). */
export function phpLiteral(v: Value): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if ((typeof v === 'number' && Number.isSafeInteger(v)) || typeof v === 'bigint') return String(v);
  if (typeof v === 'number' || v instanceof PhpFloat)
    return `(float)'${phpFloatRepr(typeof v === 'number' ? v : v.value)}'`;
  if (typeof v === 'string') return `base64_decode('${Buffer.from(toBytes(v)).toString('base64')}')`;
  throw new Error('scalar expected');
}

/** A seeded generator of test inputs. */
export class Gen {
  private rng: Random;
  constructor(seed: number) {
    this.rng = new Random(seedBytes(seed));
  }
  int(min: number, max: number): number {
    return this.rng.int(min, max);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(0, xs.length - 1)];
  }
  bytes(n: number): Uint8Array {
    return Uint8Array.from({ length: n }, () => this.int(0, 255));
  }
  text(n: number, alphabet: string): string {
    const chars = Array.from(alphabet);
    let s = '';
    for (let i = 0; i < n; i++) s += this.pick(chars);
    return s;
  }
}

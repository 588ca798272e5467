/** Contexts for calling plugin implementations directly in unit tests. */
import type { ModifierContext, PluginContext } from '../../src/plugins/types.js';
import type { Value } from '../../src/value/value.js';
import { assignVar, type Scope } from '../../src/value/assign.js';
import { Random } from '../../src/runtime/random.js';

export const TEST_NOW = 1700000000;

export function testModifierContext(
  opts: { timezone?: string; lang?: string; now?: number; rootUrl?: string; warnings?: string[] } = {},
): ModifierContext {
  const rng = new Random([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  return {
    site: {
      timezone: opts.timezone ?? 'Asia/Tokyo',
      lang: opts.lang ?? 'ja',
      rootUrl: opts.rootUrl ?? 'https://example.com',
    },
    now: opts.now ?? TEST_NOW,
    warn: (m) => opts.warnings?.push(m),
    random: () => rng.next(),
    askHost: (modifier) => {
      throw new Error(`the modifier ${modifier} needs a host, and a unit-test context has none`);
    },
  };
}

/** A plugin context over a plain scope, with the platform's assign rules. */
export function testPluginContext(
  vars: Record<string, Value> = {},
  opts: { warnings?: string[]; logs?: string[]; request?: Record<string, Value> } = {},
): PluginContext & { scope: Scope } {
  const scope: Scope = Object.assign(Object.create(null), vars);
  const state = new Map<string, unknown>();
  const base = testModifierContext(opts);
  return {
    ...base,
    scope,
    get: (name) => scope[name] ?? null,
    assign: (name, value) => assignVar(scope, name, value),
    state: <T>(key: string, init: () => T) => {
      if (!state.has(key)) state.set(key, init());
      return state.get(key) as T;
    },
    log: (level, message) => opts.logs?.push(`${level}: ${message}`),
    request: (kind) => opts.request?.[kind] ?? null,
  };
}

/**
 * The options of `serve --sites` that say what each site may take of the process (src/site/registry.ts):
 * each a flag and an environment variable, the flag first. One table, which the usage text and
 * the parser both read.
 */
import { UsageError, stringOption, type OptionSpec, type Parsed } from '../args.js';
import { DEFAULT_REGISTRY, type RegistryOptions } from '../../site/registry.js';
import { DEFAULT_POOL } from '../../sandbox/pool.js';

interface TenancyOption {
  flag: string;
  env: string;
  default: number;
  min: number;
  doc: string;
  set(opts: Partial<RegistryOptions>, value: number): void;
}

const pool = (opts: Partial<RegistryOptions>, set: Record<string, number>) => {
  opts.engine = { ...opts.engine, pool: { ...opts.engine?.pool, ...set } };
};

const TENANCY_OPTIONS: readonly TenancyOption[] = [
  {
    flag: 'pg-pool-max',
    env: 'SMARTCAGE_PG_POOL_MAX',
    default: DEFAULT_REGISTRY.pgPoolMax,
    min: 1,
    doc: 'connections of the PostgreSQL pool that the sites naming one database share, per process',
    set: (o, v) => void (o.pgPoolMax = v),
  },
  {
    flag: 'site-idle-ms',
    env: 'SMARTCAGE_SITE_IDLE_MS',
    default: DEFAULT_REGISTRY.idleMs,
    min: 1000,
    doc: 'a site unused this long has its database, queue and stores closed',
    set: (o, v) => void (o.idleMs = v),
  },
  {
    flag: 'tenant-max-inflight',
    env: 'SMARTCAGE_TENANT_MAX_INFLIGHT',
    default: DEFAULT_REGISTRY.maxInFlight,
    min: 1,
    doc: 'requests of one site running at once',
    set: (o, v) => void (o.maxInFlight = v),
  },
  {
    flag: 'tenant-max-queued',
    env: 'SMARTCAGE_TENANT_MAX_QUEUED',
    default: DEFAULT_REGISTRY.maxQueued,
    min: 0,
    doc: 'requests of one site waiting; one more is answered 429 with Retry-After',
    set: (o, v) => void (o.maxQueued = v),
  },
  {
    flag: 'isolate-idle-ms',
    env: 'SMARTCAGE_ISOLATE_IDLE_MS',
    default: DEFAULT_POOL.isolateIdleMs,
    min: 1000,
    doc: "a site's isolate unused this long is disposed",
    set: (o, v) => pool(o, { isolateIdleMs: v }),
  },
  {
    flag: 'isolate-heap-budget-mb',
    env: 'SMARTCAGE_ISOLATE_HEAP_BUDGET_MB',
    default: DEFAULT_POOL.workerHeapBudgetMB,
    min: 16,
    doc: 'heap the idle isolates of one sandbox worker may hold; past it the least recently used go',
    set: (o, v) => pool(o, { workerHeapBudgetMB: v }),
  },
  {
    flag: 'isolates-max',
    env: 'SMARTCAGE_ISOLATES_MAX',
    default: DEFAULT_POOL.workerMaxIsolates,
    min: 1,
    doc: 'isolates one sandbox worker keeps warm; past it the least recently used idle one goes',
    set: (o, v) => pool(o, { workerMaxIsolates: v }),
  },
];

export const TENANCY_SPEC: OptionSpec = Object.fromEntries(TENANCY_OPTIONS.map((o) => [o.flag, { type: 'string' }]));

export const TENANCY_USAGE: readonly string[] = TENANCY_OPTIONS.map(
  (o) => `  --${o.flag} N  (${o.env}, default ${o.default}) ${o.doc}`,
);

/** The registry options the flags and the environment give; a value that is not an integer >= its minimum is a UsageError. */
export function tenancyOptions(
  values: Parsed['values'],
  env: NodeJS.ProcessEnv = process.env,
): Partial<RegistryOptions> {
  const out: Partial<RegistryOptions> = {};
  for (const o of TENANCY_OPTIONS) {
    const flag = stringOption(values, o.flag);
    const text = flag ?? env[o.env];
    if (text === undefined || text === '') continue;
    const v = Number(text);
    if (!Number.isSafeInteger(v) || v < o.min)
      throw new UsageError(
        `${flag !== undefined ? `--${o.flag}` : o.env} needs an integer of at least ${o.min} (got "${text}")`,
      );
    o.set(out, v);
  }
  return out;
}

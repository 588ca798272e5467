/**
 * Every option of `smartcage serve`, once: its flag, its environment variable, its key in the
 * optional config file (`--config FILE`), its type, its default and one line of help. The
 * command line (src/cli/commands/serve.ts), `serve --help`, the environment, the config file and
 * the README's table (a test compares them) are all read from SERVE_OPTIONS, so an option is added
 * by adding its row.
 *
 * Names are derived from the row's key: `drain-timeout` is the flag `--drain-timeout`, the
 * variable SMARTCAGE_DRAIN_TIMEOUT and the config-file key "drain-timeout". For each option the
 * first source that gives it wins: flag, then environment, then config file, then default.
 * A value that is wrong wherever it comes from (a port of 70000, a config file that is not JSON,
 * a key the table lacks) is a ServeConfigError: one line naming where the value came from, which
 * the command prints with exit 3.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SITE_ENGINE_WORKERS } from '../engines.js';
import { DEFAULT_REGISTRY } from '../registry.js';
import { DEFAULT_CACHE_SETTINGS } from '../api/response-cache.js';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from './logging.js';

export class ServeConfigError extends Error {}

/** Where a value came from, as a message names it. */
type Source = { from: 'flag' | 'env' | 'file'; name: string; dir: string };

/** How a value is read: from the text of a flag or variable, or from a config file's JSON value. */
interface ValueType<T> {
  /** Shown in the docs table's "type" column. */
  readonly label: string;
  parse(text: string, at: Source): T;
  /** A config file's JSON value (a string goes through `parse`). */
  fromJson?(v: unknown, at: Source): T;
}

interface Row<T, M extends boolean = boolean> {
  readonly type: ValueType<T>;
  /** The placeholder of the value in --help (`--port N`). */
  readonly arg: string;
  readonly default: T | undefined;
  /** The default as the docs say it (when it is not simply the value). */
  readonly defaultText?: string;
  readonly doc: string;
  /** The option may repeat; the environment variable is then a list (path.delimiter-separated). */
  readonly multiple?: M;
  /** Not allowed in the config file (the option that names it). */
  readonly notInFile?: boolean;
}

const fail = (at: Source, what: string): never => {
  throw new ServeConfigError(`${at.name} ${what}`);
};

const wholeNumber = (min: number, max: number, label: string): ValueType<number> => ({
  label,
  parse: (text, at) => {
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < min || n > max)
      fail(at, `needs a whole number from ${min} to ${max}, not ${JSON.stringify(text)}`);
    return n;
  },
  fromJson: (v, at) =>
    typeof v === 'number'
      ? wholeNumber(min, max, label).parse(String(v), at)
      : fail(at, `needs a whole number from ${min} to ${max}`),
});

/** A path: a flag's or a variable's as given (relative to the working folder), a config file's relative to the file. */
const file: ValueType<string> = {
  label: 'path',
  parse: (t, at) => (t.length === 0 ? fail(at, 'needs a path') : at.from === 'file' ? path.resolve(at.dir, t) : t),
};

const host: ValueType<string> = {
  label: 'host',
  parse: (t, at) =>
    /^[A-Za-z0-9.:_-]{1,253}$/.test(t) ? t : fail(at, `needs a host name or an IP address, not ${JSON.stringify(t)}`),
};

const seconds: ValueType<number> = {
  label: 'seconds',
  parse: (t, at) => {
    const n = Number(t);
    if (!/^\d+(\.\d+)?$/.test(t) || n > 86_400)
      fail(at, `needs a number of seconds from 0 to 86400, not ${JSON.stringify(t)}`);
    return n;
  },
  fromJson: (v, at) => (typeof v === 'number' ? seconds.parse(String(v), at) : fail(at, 'needs a number of seconds')),
};

/** One of a few words. */
const oneOf = <W extends string>(words: readonly W[]): ValueType<W> => ({
  label: words.join(' or '),
  parse: (t, at) =>
    (words as readonly string[]).includes(t)
      ? (t as W)
      : fail(at, `needs one of ${words.join(', ')}, not ${JSON.stringify(t)}`),
});

/** Milliseconds, from `min` to setTimeout's bound (about 24.8 days). */
const millis = (min: number): ValueType<number> => ({ ...wholeNumber(min, 2_147_483_647, ''), label: 'milliseconds' });

/** `auto` (the number of cores) or a count. */
const processes: ValueType<number | 'auto'> = {
  label: 'count or auto',
  parse: (t, at) => (t === 'auto' ? 'auto' : wholeNumber(1, 256, '').parse(t, at)),
  fromJson: (v, at) =>
    v === 'auto'
      ? 'auto'
      : typeof v === 'number'
        ? processes.parse(String(v), at)
        : fail(at, 'needs a whole number from 1 to 256 or "auto"'),
};

/** A row, its default's type kept (undefined: the option may be unset). */
const row = <T, D extends T | undefined, M extends boolean = false>(
  r: Row<T, M> & { default: D },
): Row<T, M> & { default: D } => r;

/** The table. The order is --help's and the docs'. */
export const SERVE_OPTIONS = {
  host: row({
    type: host,
    arg: 'HOST',
    default: '127.0.0.1',
    doc: 'address to listen on (0.0.0.0: every IPv4 interface, :: every interface)',
  }),
  port: row({
    type: wholeNumber(0, 65535, 'port'),
    arg: 'N',
    default: 8080,
    doc: 'port to listen on (0 picks a free one)',
  }),
  site: row({ type: file, arg: 'DIR', default: undefined, doc: 'serve one local site (smartcage site init) at /' }),
  sites: row({
    type: file,
    arg: 'DIR',
    default: undefined,
    doc: 'serve every site folder under DIR, each its own tenant, at /sites/KEY/ and KEY.localhost',
  }),
  files: row({
    type: file,
    arg: 'DIR',
    default: undefined,
    defaultText: './files if it exists',
    doc: "without a site: the file picker's storage, DIR/user/ is served as /files/user/",
  }),
  schema: row({
    type: file,
    arg: 'FILE',
    default: undefined,
    multiple: true,
    doc: 'a JSON schema of your own, shown as /demo/NAME (repeat for more)',
  }),
  processes: row({
    type: processes,
    arg: 'N',
    default: undefined,
    defaultText: 'auto with --sites, 1 with --site (one child under a primary), else one process',
    doc: 'server processes sharing the port (auto: one per core), under a primary that restarts a dead one; an explicit 1 is a single process with no primary',
  }),
  affinity: row({
    type: oneOf<'on' | 'off'>(['on', 'off']),
    arg: 'on/off',
    default: 'on' as 'on' | 'off',
    doc: "with --sites and --processes N > 1: each site's connections go to one process (a hash of its key), which alone warms it; off: to each process in turn",
  }),
  'drain-timeout': row({
    type: seconds,
    arg: 'S',
    default: 30,
    doc: 'on SIGTERM/SIGINT, seconds to let requests in flight finish before they are cut',
  }),
  // What each site may take of the process (src/site/registry.ts, src/sandbox/pool.ts).
  'pg-pool-max': row({
    type: wholeNumber(1, 10_000, 'count'),
    arg: 'N',
    default: DEFAULT_REGISTRY.pgPoolMax,
    doc: 'connections of the PostgreSQL pool that the sites naming one database share, per process',
  }),
  'site-idle-ms': row({
    type: millis(1000),
    arg: 'MS',
    default: DEFAULT_REGISTRY.idleMs,
    doc: 'a site unused this long has its database, queue and stores closed',
  }),
  'tenant-max-inflight': row({
    type: wholeNumber(1, 10_000, 'count'),
    arg: 'N',
    default: DEFAULT_REGISTRY.maxInFlight,
    doc: 'requests of one site running at once',
  }),
  'tenant-max-queued': row({
    type: wholeNumber(0, 100_000, 'count'),
    arg: 'N',
    default: DEFAULT_REGISTRY.maxQueued,
    doc: 'requests of one site waiting; one more is answered 429 with Retry-After',
  }),
  'sandbox-workers': row({
    type: wholeNumber(0, 64, 'count'),
    arg: 'N',
    // Unset: in-process in a child of --processes N, which the primary restarts; else one worker
    // per engine (src/site/engines.ts), which the pool restarts (D172, D200).
    default: undefined,
    defaultText: `0 in a child under a primary (--sites, --site), else ${SITE_ENGINE_WORKERS}`,
    doc: 'sandbox worker processes per engine; 0 runs the isolates in the server process (less CPU per request; a crash in the sandbox takes the process, which the primary restarts)',
  }),
  'isolate-idle-ms': row({
    type: millis(1000),
    arg: 'MS',
    // The sandbox pool's own default (src/sandbox/pool.ts DEFAULT_POOL, which src/site may not import; a test compares).
    default: undefined,
    defaultText: '60000',
    doc: "a site's isolate unused this long is disposed",
  }),
  'isolate-heap-budget-mb': row({
    type: wholeNumber(16, 1_048_576, 'MB'),
    arg: 'MB',
    // The sandbox pool's own default (src/sandbox/pool.ts DEFAULT_POOL, which src/site may not import; a test compares).
    default: undefined,
    defaultText: '512',
    doc: 'heap the idle isolates of one sandbox worker may hold; past it the least recently used go',
  }),
  'isolates-max': row({
    type: wholeNumber(1, 100_000, 'count'),
    arg: 'N',
    // The sandbox pool's own default (src/sandbox/pool.ts DEFAULT_POOL, which src/site may not import; a test compares).
    default: undefined,
    defaultText: '200',
    doc: 'isolates one sandbox worker keeps warm; past it the least recently used idle one goes',
  }),
  'tenants-per-isolate': row({
    type: wholeNumber(1, 32, 'count'),
    arg: 'N',
    // The sandbox pool's own default (src/sandbox/pool.ts DEFAULT_POOL, which src/site may not import; a test compares).
    default: undefined,
    defaultText: '1',
    doc: 'with --isolate-groups: sites of one group share an isolate, N at a time, a context each (they share its memory, thread and fate: D342)',
  }),
  'isolate-groups': row({
    type: file,
    arg: 'FILE',
    default: undefined,
    doc: 'a JSON file of which sites are one owner\'s, {"OWNER": ["SITE_KEY", ...]}: with --tenants-per-isolate above 1 they share isolates, and under --processes N one process serves each group (a big one in parts of N sites)',
  }),
  // The API cache's bounds (D236, D240): the process's, over every site it serves.
  'api-cache-entries': row({
    type: wholeNumber(1, 10_000_000, 'count'),
    arg: 'N',
    default: DEFAULT_CACHE_SETTINGS.entries,
    doc: 'answers of cached API endpoints kept per process, over all its sites; past it the least recently used go',
  }),
  'api-cache-mb': row({
    type: wholeNumber(1, 65_536, 'MB'),
    arg: 'MB',
    default: DEFAULT_CACHE_SETTINGS.mb,
    doc: 'megabytes of cached API answers kept per process',
  }),
  'api-cache-site-percent': row({
    type: wholeNumber(1, 100, 'percent'),
    arg: 'P',
    default: DEFAULT_CACHE_SETTINGS.sitePercent,
    doc: "the share of the API cache's entries and megabytes one site may hold (one busy site cannot push out the others' answers)",
  }),
  'api-cache-entry-kb': row({
    type: wholeNumber(1, 1_048_576, 'KB'),
    arg: 'KB',
    default: DEFAULT_CACHE_SETTINGS.entryKb,
    doc: "an API answer larger than this is not kept; at most a site's share of --api-cache-mb",
  }),
  // Logs and metrics (docs/observability.md).
  'log-level': row({
    type: oneOf<LogLevel>(LOG_LEVELS),
    arg: 'LEVEL',
    default: 'info' as LogLevel,
    doc: "one JSON line per request on stderr and the templates' {logger} lines from this level up",
  }),
  'log-format': row({
    type: oneOf<LogFormat>(LOG_FORMATS),
    arg: 'F',
    default: undefined,
    defaultText: 'pretty on a terminal, else json',
    doc: 'how the log lines are written',
  }),
  'metrics-port': row({
    type: wholeNumber(0, 65535, 'port'),
    arg: 'N',
    default: undefined,
    defaultText: 'the serving port',
    doc: 'Prometheus metrics at http://127.0.0.1:N/metrics instead of /metrics on the serving port (0 picks a free one)',
  }),
  'metrics-site-labels': row({
    type: wholeNumber(0, 1000, 'count'),
    arg: 'N',
    default: 0,
    doc: 'per-site render counters for the N sites with the most renders, the rest as site="other" (0: no metric names a site)',
  }),
  config: row({
    type: file,
    arg: 'FILE',
    default: undefined,
    notInFile: true,
    doc: 'a JSON file of these options (keys: the option names, e.g. "port")',
  }),
};

type Table = typeof SERVE_OPTIONS;
type ServeOptionName = keyof Table;
type ValueOf<R> = R extends Row<infer T> ? T : never;

/** The options as resolved: each option's value (a list for a repeatable one), or undefined. */
export type ServeConfig = {
  -readonly [K in ServeOptionName]: Table[K] extends { multiple?: true }
    ? ValueOf<Table[K]>[]
    : ValueOf<Table[K]> | (undefined extends Table[K]['default'] ? undefined : never);
};

const names = Object.keys(SERVE_OPTIONS) as ServeOptionName[];
const rowOf = (name: ServeOptionName): Row<unknown> => SERVE_OPTIONS[name] as Row<unknown>;

export const envName = (name: string): string => `SMARTCAGE_${name.toUpperCase().replace(/-/g, '_')}`;

/** For the strict flag parser (src/cli/args.ts): every option takes a value. */
export function serveFlagSpec(): Record<string, { type: 'string'; multiple?: boolean }> {
  return Object.fromEntries(
    names.map((n) => [n, { type: 'string' as const, ...(rowOf(n).multiple ? { multiple: true } : {}) }]),
  );
}

/**
 * The options from the flags given (`flags`: strings as parsed, a list for a repeatable one),
 * the environment and the config file the flag or SMARTCAGE_CONFIG names.
 */
export function resolveServeOptions(
  flags: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): ServeConfig {
  const fromFlagOrEnv = (name: ServeOptionName): unknown[] | undefined => {
    const r = rowOf(name);
    const flag = flags[name];
    if (flag !== undefined) {
      const at: Source = { from: 'flag', name: `--${name}`, dir: cwd };
      return (Array.isArray(flag) ? flag : [flag]).map((v) => r.type.parse(String(v), at));
    }
    const e = env[envName(name)];
    if (e !== undefined && e !== '') {
      const at: Source = { from: 'env', name: envName(name), dir: cwd };
      return (r.multiple ? e.split(path.delimiter).filter(Boolean) : [e]).map((v) => r.type.parse(v, at));
    }
    return undefined;
  };
  const configPath = fromFlagOrEnv('config')?.[0] as string | undefined;
  const fileValues = configPath === undefined ? {} : readConfigFile(configPath);
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const r = rowOf(name);
    let values = fromFlagOrEnv(name);
    if (values === undefined && name in fileValues) {
      const at: Source = { from: 'file', name: `${configPath}: "${name}"`, dir: path.dirname(configPath!) };
      const raw = fileValues[name];
      const list = r.multiple && Array.isArray(raw) ? raw : [raw];
      values = list.map((v) =>
        typeof v === 'string'
          ? r.type.parse(v, at)
          : r.type.fromJson
            ? r.type.fromJson(v, at)
            : fail(at, `needs a string`),
      );
    }
    out[name] = r.multiple ? (values ?? []) : (values?.[0] ?? r.default);
  }
  const cfg = out as ServeConfig;
  checkTogether(cfg);
  return cfg;
}

/** What no one value says wrong but two or more do together. */
function checkTogether(cfg: ServeConfig): void {
  // An answer larger than a site's share would push out all of the site's others, then itself.
  const shareKb = Math.floor((cfg['api-cache-mb'] * 1024 * cfg['api-cache-site-percent']) / 100);
  if (cfg['api-cache-entry-kb'] > shareKb)
    throw new ServeConfigError(
      `api-cache-entry-kb ${cfg['api-cache-entry-kb']} is more than a site's share of the API cache (${cfg['api-cache-site-percent']} % of ${cfg['api-cache-mb']} MB: ${shareKb} KB)`,
    );
}

function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ServeConfigError(`config file ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ServeConfigError(`config file ${file} is not JSON (${(e as Error).message.split('\n')[0]})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new ServeConfigError(`config file ${file} must hold a JSON object of options`);
  for (const key of Object.keys(json)) {
    if (!(key in SERVE_OPTIONS) || rowOf(key as ServeOptionName).notInFile) {
      throw new ServeConfigError(
        `config file ${file}: unknown key "${key}" (the keys are ${names.filter((n) => !rowOf(n).notInFile).join(', ')})`,
      );
    }
  }
  return json as Record<string, unknown>;
}

const defaultText = (r: Row<unknown>): string => r.defaultText ?? (r.default === undefined ? '' : String(r.default));

/** The options' lines of `serve --help`. */
export function serveOptionsHelp(): string[] {
  const heads = names.map((n) => `--${n} ${rowOf(n).arg}`);
  const width = Math.max(...heads.map((h) => h.length)) + 2;
  return names.map((n, i) => {
    const r = rowOf(n);
    const d = defaultText(r);
    return `  ${heads[i]!.padEnd(width)}${r.doc}\n  ${''.padEnd(width)}${d ? `default ${d}; ` : ''}env ${envName(n)}`;
  });
}

/** The docs' table (README, "Run it in production"), in Markdown. */
export function serveOptionsMarkdown(): string {
  const lines = ['| flag | environment | config file | type | default | what |', '|---|---|---|---|---|---|'];
  for (const n of names) {
    const r = rowOf(n);
    const d = defaultText(r);
    const shown = r.defaultText ?? (d ? `\`${d}\`` : '');
    lines.push(
      `| \`--${n} ${r.arg}\` | \`${envName(n)}\` | ${r.notInFile ? '' : `\`"${n}"\``} | ${r.type.label}${r.multiple ? ' (list)' : ''} | ${shown} | ${r.doc} |`,
    );
  }
  return lines.join('\n');
}

/**
 * site.json: what a local site is, in a file a person edits and keeps in git. Read strictly: an
 * unknown key or a wrong type is an error naming the key, never a silent default.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSchedule } from './batches/schedule.js';
import { parseBatchLimits, type BatchLimits } from './batches/limits.js';
import { integrationsProblem, readIntegrations, type IntegrationsConfig } from './integrations-config.js';

export interface EndpointConfig {
  /** Path under the site's API (`news` is served at /rcms-api/1/news). */
  path: string;
  method: 'GET' | 'POST';
  /** The custom function (functions/<function>.tpl) that answers it. */
  function: string;
  /** The API it belongs to (api_token's api_id). */
  api_id: number;
}

/**
 * An API of the site (api_token's api_id), and what a request to its endpoints must carry when
 * `smartcage serve` answers it: nothing (`none`), a session cookie (`cookie`), or an access token
 * of this API of that type in the X-RCMS-API-ACCESS-TOKEN header (`static`, `dynamic`; a
 * session's access token from {assign_api_credential} also serves for `dynamic`). {api_token}
 * issues only tokens of the API's type.
 */
interface ApiConfig {
  api_id: number;
  security: 'none' | 'cookie' | 'static' | 'dynamic';
}

interface BatchConfig {
  slug: string;
  /** The batch's registered id ({batch} batch_id); absent: it is started by slug only. */
  id?: number;
  /**
   * Cron expression (minute hour day month weekday), in the site's time zone, of one of the
   * platform's schedules (batches/schedule.ts); absent: started only by {batch} and callbacks.
   */
  schedule?: string;
}

/**
 * The SMTP relay of a local site's mail (docs/site.md, "Mail"). Credentials are secret NAMES in
 * secrets.json, never values in site.json, which goes into git.
 */
export interface SmtpConfig {
  host: string;
  port: number;
  /** Implicit TLS from the first byte (port 465 style). Default false. */
  secure: boolean;
  /**
   * Without `secure`: `required` (STARTTLS, or no mail), `opportunistic` (STARTTLS when the relay
   * offers it) or `never`. Default: required with auth, opportunistic without.
   */
  starttls: 'required' | 'opportunistic' | 'never';
  /** Secret names (secrets.json) of the user name and the password. */
  auth?: { user_secret: string; pass_secret: string };
  /** A PEM file (relative to the site folder) of the CA the relay's certificate must chain to, instead of the system's. */
  ca_file?: string;
  /** The EHLO name. Default: the host of root_url. */
  helo?: string;
  /** Connections kept open and reused; absent: one connection per mail. */
  pool?: number;
}

interface MailConfig {
  verified_domains: string[];
  from?: string;
  from_name?: string;
  /** Absent: mails go to the outbox only, status not_sent (docs/site.md, "Mail"). */
  smtp?: SmtpConfig;
  /** Mails and recipients the site may send in any 60 minutes (counted in the outbox). Defaults 200 and 2000. */
  max_per_hour: number;
  max_recipients_per_hour: number;
}

/** Where the site's files live: its folder `files/` (default) or an S3-compatible bucket. */
type StorageConfig = { type: 'local' } | S3StorageConfig;

export interface S3StorageConfig {
  type: 's3';
  /** e.g. `https://s3.ap-northeast-1.amazonaws.com`; absent: AWS by region. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Key prefix of this site in the bucket (`site-a/`); absent: the bucket is the site's. */
  prefix?: string;
  /** NAMES of secrets.json entries holding the access key id and the secret key (never the keys). */
  access_key_secret: string;
  secret_key_secret: string;
  force_path_style?: boolean;
}

export interface SiteConfig {
  site_key: string;
  timezone: string;
  lang: string;
  /** Languages the content is kept in (the first is the default). */
  languages: string[];
  /** Member IDs that are super users. */
  super_users: number[];
  /** PostgreSQL URL; absent or null: SQLite in data/site.sqlite. */
  database?: string | null;
  root_url: string;
  endpoints: EndpointConfig[];
  /** Every API an endpoint names; one not listed in site.json `apis` has security `none`. */
  apis: ApiConfig[];
  batches: BatchConfig[];
  /** Where the batch queue lives: a redis:// URL (BullMQ); absent or null: the site's database. */
  batch_queue?: string | null;
  /** Wall time, CPU time and memory class of each batch run (batches/limits.ts); absent: the defaults. */
  batch_limits?: BatchLimits;
  /**
   * NAME of the secret (secrets source) holding the Redis password of `batch_queue`, which then
   * carries none in clear (batches/queue-url.ts); absent: the URL as it is.
   */
  batch_queue_password_secret?: string;
  mail: MailConfig;
  storage: StorageConfig;
  /** {purge_cdn_cache} without api_endpoint: `{ "purge_url": ..., "token_secret"?: ... }`. */
  cdn?: { purge_url: string; token_secret?: string };
  /** {repo_deploy}: the build hook, `{ "hook_url": ..., "token_secret"?: ... }`. */
  deploy?: { hook_url: string; token_secret?: string };
  /** Chat, social, cloud and analytics services (integrations-config.ts); absent: none. */
  integrations: IntegrationsConfig;
  /** Where the named secrets come from (adapters/secrets.ts); absent: secrets.json in the folder. */
  secrets?: SecretsSource;
  /** Smarty 2's default modifiers for every template of the site (EngineOptions.defaultModifiers); absent: none. */
  default_modifiers?: string[];
  /**
   * The site this one names as its parent: {site_sync} relates two sites only when the parent's
   * child_sites lists the child and the child names the parent here (D158). Absent: none.
   */
  parent_site?: string | null;
}

/**
 * Where a site's secrets come from, for hosts whose site folders are deployed from git to many
 * nodes: a file mounted on every node (`file`, absolute or relative to the site folder), or
 * environment variables named `env_prefix` + the secret's name.
 */
export type SecretsSource = { file: string } | { env_prefix: string };

export class SiteConfigError extends Error {}

const KEYS: Record<keyof SiteConfig, (v: unknown) => boolean> = {
  site_key: (v) => typeof v === 'string' && /^[a-z0-9][a-z0-9_-]{0,62}$/.test(v),
  timezone: (v) => typeof v === 'string' && v.length > 0,
  lang: (v) => typeof v === 'string' && /^[a-z]{2}$/.test(v),
  languages: (v) => Array.isArray(v) && v.length > 0 && v.every((l) => typeof l === 'string' && /^[a-z]{2}$/.test(l)),
  super_users: (v) => Array.isArray(v) && v.every((n) => Number.isInteger(n) && n > 0),
  database: (v) => v === null || (typeof v === 'string' && /^postgres(ql)?:\/\//.test(v)),
  root_url: (v) => typeof v === 'string' && /^https?:\/\/[^/]+$/.test(v),
  endpoints: (v) => Array.isArray(v) && v.every(isEndpoint),
  apis: (v) => Array.isArray(v) && v.every(isApi) && new Set(v.map((a) => (a as ApiConfig).api_id)).size === v.length,
  batches: (v) =>
    Array.isArray(v) &&
    v.every(isBatch) &&
    new Set(v.map((b) => (b as BatchConfig).slug)).size === v.length &&
    new Set(v.flatMap((b) => ((b as BatchConfig).id === undefined ? [] : [(b as BatchConfig).id]))).size ===
      v.filter((b) => (b as BatchConfig).id !== undefined).length,
  batch_queue: (v) => v === null || (typeof v === 'string' && /^redis:\/\//.test(v)),
  // Checked with a message of its own in parseSiteConfig.
  batch_limits: () => true,
  batch_queue_password_secret: (v) => typeof v === 'string' && SECRET_NAME.test(v),
  mail: isMail,
  storage: (v) => isObject(v) && (v.type === 'local' ? Object.keys(v).length === 1 : isS3Storage(v)),
  cdn: (v) => isHook(v, 'purge_url'),
  deploy: (v) => isHook(v, 'hook_url'),
  default_modifiers: (v) => Array.isArray(v) && v.every((m) => typeof m === 'string' && m.trim() !== ''),
  // Checked with a message of its own in parseSiteConfig.
  integrations: () => true,
  secrets: (v) =>
    isObject(v) &&
    Object.keys(v).length === 1 &&
    ((typeof v.file === 'string' && v.file.length > 0) ||
      (typeof v.env_prefix === 'string' && /^[A-Z][A-Z0-9_]{0,63}$/.test(v.env_prefix))),
  parent_site: (v) => v === null || (typeof v === 'string' && /^[a-z0-9][a-z0-9_-]{0,62}$/.test(v)),
};
const OPTIONAL: ReadonlySet<string> = new Set([
  'database',
  'endpoints',
  'apis',
  'batches',
  'batch_queue',
  'batch_limits',
  'batch_queue_password_secret',
  'mail',
  'languages',
  'super_users',
  'root_url',
  'storage',
  'cdn',
  'deploy',
  'integrations',
  'secrets',
  'default_modifiers',
  'parent_site',
]);

const SECRET_NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const S3_KEYS: Record<string, (v: unknown) => boolean> = {
  type: (v) => v === 's3',
  endpoint: (v) => typeof v === 'string' && /^https?:\/\/[^/?#]+\/?$/.test(v),
  region: (v) => typeof v === 'string' && /^[a-z0-9-]{1,40}$/.test(v),
  bucket: (v) => typeof v === 'string' && /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(v),
  prefix: (v) =>
    typeof v === 'string' && /^([A-Za-z0-9_-][A-Za-z0-9._-]*\/?)*$/.test(v) && !/(^|\/)\.\.?(\/|$)/.test(v),
  access_key_secret: (v) => typeof v === 'string' && SECRET_NAME.test(v),
  secret_key_secret: (v) => typeof v === 'string' && SECRET_NAME.test(v),
  force_path_style: (v) => typeof v === 'boolean',
};
const S3_REQUIRED = ['type', 'region', 'bucket', 'access_key_secret', 'secret_key_secret'];

function isS3Storage(v: Record<string, unknown>): boolean {
  return S3_REQUIRED.every((k) => k in v) && Object.entries(v).every(([k, x]) => S3_KEYS[k]?.(x) === true);
}

/** `{ "<urlKey>": "http(s)://...", "token_secret"?: "NAME" }` and nothing else. */
function isHook(v: unknown, urlKey: string): boolean {
  if (!isObject(v)) return false;
  const url = v[urlKey];
  const secret = v.token_secret;
  return (
    typeof url === 'string' &&
    /^https?:\/\/[^\s]+$/.test(url) &&
    (secret === undefined || (typeof secret === 'string' && SECRET_NAME.test(secret))) &&
    Object.keys(v).every((k) => k === urlKey || k === 'token_secret')
  );
}

const SLUG = /^[a-z0-9][a-z0-9_-]{0,62}$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function isEndpoint(v: unknown): boolean {
  return (
    isObject(v) &&
    typeof v.path === 'string' &&
    SLUG.test(v.path) &&
    (v.method === 'GET' || v.method === 'POST') &&
    typeof v.function === 'string' &&
    SLUG.test(v.function) &&
    Number.isInteger(v.api_id)
  );
}

/** True when `v` has only the keys of `shape`, each passing its check (absent ones only when optional). */
function hasShape(v: unknown, shape: Record<string, [optional: boolean, ok: (x: unknown) => boolean]>): boolean {
  if (!isObject(v) || !Object.keys(v).every((k) => Object.prototype.hasOwnProperty.call(shape, k))) return false;
  return Object.entries(shape).every(([k, [optional, ok]]) => (v[k] === undefined ? optional : ok(v[k])));
}
const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^\[?[0-9A-Fa-f:.]{2,45}\]?$/;
const isText = (x: unknown) => typeof x === 'string' && x.length > 0 && x.length <= 255;
const isCount = (max: number) => (x: unknown) => Number.isInteger(x) && (x as number) >= 1 && (x as number) <= max;
function isSmtp(v: unknown): boolean {
  return hasShape(v, {
    host: [false, (x) => typeof x === 'string' && HOST_NAME.test(x)],
    port: [false, isCount(65535)],
    secure: [true, (x) => typeof x === 'boolean'],
    starttls: [true, (x) => x === 'required' || x === 'opportunistic' || x === 'never'],
    auth: [
      true,
      (x) =>
        hasShape(x, {
          user_secret: [false, (n) => typeof n === 'string' && SECRET_NAME.test(n)],
          pass_secret: [false, (n) => typeof n === 'string' && SECRET_NAME.test(n)],
        }),
    ],
    ca_file: [true, (x) => isText(x) && !(x as string).split(/[\\/]/).includes('..') && !(x as string).startsWith('/')],
    helo: [true, (x) => typeof x === 'string' && HOST_NAME.test(x)],
    pool: [true, isCount(10)],
  });
}
function isMail(v: unknown): boolean {
  return hasShape(v, {
    verified_domains: [false, (x) => Array.isArray(x) && x.every((d) => typeof d === 'string' && HOST_NAME.test(d))],
    from: [true, isText],
    from_name: [true, (x) => typeof x === 'string' && x.length <= 200],
    smtp: [true, isSmtp],
    max_per_hour: [true, isCount(100_000)],
    max_recipients_per_hour: [true, isCount(1_000_000)],
  });
}

/** site.json `mail` with its defaults filled in. */
function mailConfig(json: Record<string, unknown> | undefined): MailConfig {
  const smtp = json?.smtp as (Partial<SmtpConfig> & Pick<SmtpConfig, 'host' | 'port'>) | undefined;
  return {
    verified_domains: (json?.verified_domains as string[] | undefined) ?? [],
    ...(json?.from !== undefined ? { from: json.from as string } : {}),
    ...(json?.from_name !== undefined ? { from_name: json.from_name as string } : {}),
    ...(smtp
      ? {
          smtp: {
            ...smtp,
            secure: smtp.secure ?? false,
            starttls: smtp.starttls ?? (smtp.auth ? 'required' : 'opportunistic'),
          },
        }
      : {}),
    max_per_hour: (json?.max_per_hour as number | undefined) ?? 200,
    max_recipients_per_hour: (json?.max_recipients_per_hour as number | undefined) ?? 2000,
  };
}

const BATCH_KEYS: ReadonlySet<string> = new Set(['slug', 'id', 'schedule']);
function isBatch(v: unknown): boolean {
  return (
    isObject(v) &&
    Object.keys(v).every((k) => BATCH_KEYS.has(k)) &&
    typeof v.slug === 'string' &&
    SLUG.test(v.slug) &&
    (v.id === undefined || (Number.isInteger(v.id) && (v.id as number) > 0)) &&
    (v.schedule === undefined || (typeof v.schedule === 'string' && parseSchedule(v.schedule) !== null))
  );
}

const SECURITY: ReadonlySet<unknown> = new Set(['none', 'cookie', 'static', 'dynamic']);
function isApi(v: unknown): boolean {
  return (
    isObject(v) &&
    Number.isInteger(v.api_id) &&
    (v.api_id as number) > 0 &&
    SECURITY.has(v.security) &&
    Object.keys(v).length === 2
  );
}

/** The APIs listed, then one of security `none` for each other api_id an endpoint names. */
function allApis(listed: ApiConfig[], endpoints: EndpointConfig[]): ApiConfig[] {
  const out = [...listed];
  for (const e of endpoints)
    if (!out.some((a) => a.api_id === e.api_id)) out.push({ api_id: e.api_id, security: 'none' });
  return out;
}

/** Checks parsed site.json text; `where` names the file in errors. */
export function parseSiteConfig(json: unknown, where: string): SiteConfig {
  if (!isObject(json)) throw new SiteConfigError(`${where}: must be a JSON object`);
  for (const key of Object.keys(json)) {
    if (!(key in KEYS))
      throw new SiteConfigError(`${where}: unknown key "${key}" (known: ${Object.keys(KEYS).join(', ')})`);
  }
  for (const [key, ok] of Object.entries(KEYS)) {
    if (!(key in json)) {
      if (OPTIONAL.has(key)) continue;
      throw new SiteConfigError(`${where}: "${key}" is required`);
    }
    if (!ok(json[key]))
      throw new SiteConfigError(`${where}: "${key}" has a wrong value (${JSON.stringify(json[key]).slice(0, 80)})`);
  }
  const integrations = json.integrations === undefined ? null : integrationsProblem(json.integrations);
  if (integrations !== null) throw new SiteConfigError(`${where}: ${integrations}`);
  const batchLimits = parseBatchLimits(json.batch_limits);
  if (typeof batchLimits === 'string') throw new SiteConfigError(`${where}: "batch_limits": ${batchLimits}`);
  const lang = json.lang as string;
  const endpoints = (json.endpoints as EndpointConfig[] | undefined) ?? [];
  return {
    site_key: json.site_key as string,
    timezone: json.timezone as string,
    lang,
    languages: (json.languages as string[] | undefined) ?? [lang],
    super_users: (json.super_users as number[] | undefined) ?? [],
    database: (json.database as string | null | undefined) ?? null,
    root_url: (json.root_url as string | undefined) ?? 'http://localhost',
    endpoints,
    apis: allApis((json.apis as ApiConfig[] | undefined) ?? [], endpoints),
    batches: (json.batches as BatchConfig[] | undefined) ?? [],
    batch_queue: (json.batch_queue as string | null | undefined) ?? null,
    ...(json.batch_limits !== undefined ? { batch_limits: batchLimits } : {}),
    ...(typeof json.batch_queue_password_secret === 'string'
      ? { batch_queue_password_secret: json.batch_queue_password_secret }
      : {}),
    mail: mailConfig(json.mail as Record<string, unknown> | undefined),
    storage: (json.storage as StorageConfig | undefined) ?? { type: 'local' },
    ...(json.cdn !== undefined ? { cdn: json.cdn as SiteConfig['cdn'] & object } : {}),
    ...(json.deploy !== undefined ? { deploy: json.deploy as SiteConfig['deploy'] & object } : {}),
    integrations: readIntegrations((json.integrations as Parameters<typeof readIntegrations>[0] | undefined) ?? {}),
    ...(json.secrets !== undefined ? { secrets: json.secrets as SecretsSource } : {}),
    ...(json.default_modifiers !== undefined ? { default_modifiers: json.default_modifiers as string[] } : {}),
    ...(typeof json.parent_site === 'string' ? { parent_site: json.parent_site } : {}),
  };
}

export function readSiteConfig(dir: string): SiteConfig {
  const file = path.join(dir, 'site.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new SiteConfigError(
      `${file}: not found (a site folder has a site.json; create one with \`smartcage site init ${dir}\`)`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new SiteConfigError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  return parseSiteConfig(json, file);
}

/**
 * site.json: what a local site is, in a file a person edits and keeps in git. Read strictly: an
 * unknown key or a wrong type is an error naming the key, never a silent default.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
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
export interface ApiConfig {
  api_id: number;
  security: 'none' | 'cookie' | 'static' | 'dynamic';
}

export interface BatchConfig {
  slug: string;
  /** Cron expression (minute hour day month weekday), in the site's time zone; absent: started only by {batch}. */
  schedule?: string;
}

export interface MailConfig {
  verified_domains: string[];
  from?: string;
  from_name?: string;
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
  mail: MailConfig;
  /** Chat, social, cloud and analytics services (integrations-config.ts); absent: none. */
  integrations: IntegrationsConfig;
}

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
  batches: (v) => Array.isArray(v) && v.every((b) => isObject(b) && typeof b.slug === 'string' && SLUG.test(b.slug) && (b.schedule === undefined || typeof b.schedule === 'string')),
  mail: (v) => isObject(v) && Array.isArray(v.verified_domains) && v.verified_domains.every((d) => typeof d === 'string'),
  // Checked with a message of its own in parseSiteConfig.
  integrations: () => true,
};
const OPTIONAL: ReadonlySet<string> = new Set(['database', 'endpoints', 'apis', 'batches', 'mail', 'languages', 'super_users', 'root_url', 'integrations']);
const SLUG = /^[a-z0-9][a-z0-9_-]{0,62}$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function isEndpoint(v: unknown): boolean {
  return isObject(v) && typeof v.path === 'string' && SLUG.test(v.path) && (v.method === 'GET' || v.method === 'POST') &&
    typeof v.function === 'string' && SLUG.test(v.function) && Number.isInteger(v.api_id);
}

const SECURITY: ReadonlySet<unknown> = new Set(['none', 'cookie', 'static', 'dynamic']);
function isApi(v: unknown): boolean {
  return isObject(v) && Number.isInteger(v.api_id) && (v.api_id as number) > 0 && SECURITY.has(v.security) && Object.keys(v).length === 2;
}

/** The APIs listed, then one of security `none` for each other api_id an endpoint names. */
function allApis(listed: ApiConfig[], endpoints: EndpointConfig[]): ApiConfig[] {
  const out = [...listed];
  for (const e of endpoints) if (!out.some((a) => a.api_id === e.api_id)) out.push({ api_id: e.api_id, security: 'none' });
  return out;
}

/** Checks parsed site.json text; `where` names the file in errors. */
export function parseSiteConfig(json: unknown, where: string): SiteConfig {
  if (!isObject(json)) throw new SiteConfigError(`${where}: must be a JSON object`);
  for (const key of Object.keys(json)) {
    if (!(key in KEYS)) throw new SiteConfigError(`${where}: unknown key "${key}" (known: ${Object.keys(KEYS).join(', ')})`);
  }
  for (const [key, ok] of Object.entries(KEYS)) {
    if (!(key in json)) {
      if (OPTIONAL.has(key)) continue;
      throw new SiteConfigError(`${where}: "${key}" is required`);
    }
    if (!ok(json[key])) throw new SiteConfigError(`${where}: "${key}" has a wrong value (${JSON.stringify(json[key]).slice(0, 80)})`);
  }
  const integrations = json.integrations === undefined ? null : integrationsProblem(json.integrations);
  if (integrations !== null) throw new SiteConfigError(`${where}: ${integrations}`);
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
    mail: (json.mail as MailConfig | undefined) ?? { verified_domains: [] },
    integrations: readIntegrations((json.integrations as Parameters<typeof readIntegrations>[0] | undefined) ?? {}),
  };
}

export function readSiteConfig(dir: string): SiteConfig {
  const file = path.join(dir, 'site.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new SiteConfigError(`${file}: not found (a site folder has a site.json; create one with \`smartcage site init ${dir}\`)`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new SiteConfigError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  return parseSiteConfig(json, file);
}

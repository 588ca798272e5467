/**
 * site.json: what a local site is, in a file a person edits and keeps in git. What it may hold is
 * described once, in schema/site.schema.json: the types of site-json.generated.ts come from it and
 * json-check.ts checks a file against it, strictly (an unknown key or a wrong type is an error
 * naming its JSON path, never a silent default). What is left here is what a schema cannot say
 * (keys unique within a list, the platform's schedules, the batch limits' bounds), the defaults
 * and the normalised shape the site runs on.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SITE_DEFAULTS } from '../index.js';
import { parseSchedule } from './batches/schedule.js';
import { parseBatchLimits, type BatchLimits } from './batches/limits.js';
import { readIntegrations, type IntegrationsConfig } from './integrations-config.js';
import { checkJson, pointer, problemText, type JsonProblem } from './json-check.js';
import {
  SITE_SCHEMA,
  type ApiJson,
  type BatchJson,
  type EndpointJson,
  type LocalStorageJson,
  type MailJson,
  type S3StorageJson,
  type SecretsEnvJson,
  type SecretsFileJson,
  type SiteJson,
  type SmtpJson,
} from './site-json.generated.js';

export type EndpointConfig = EndpointJson;
export type S3StorageConfig = S3StorageJson;
/**
 * Where a site's secrets come from, for hosts whose site folders are deployed from git to many
 * nodes: a file mounted on every node, or environment variables named `env_prefix` + the name.
 */
export type SecretsSource = SecretsFileJson | SecretsEnvJson;
/** The SMTP relay of a local site's mail (docs/site.md, "Mail"), `secure` and `starttls` decided. */
export type SmtpConfig = SmtpJson & Required<Pick<SmtpJson, 'secure' | 'starttls'>>;
interface MailConfig extends Omit<MailJson, 'smtp'> {
  smtp?: SmtpConfig;
  max_per_hour: number;
  max_recipients_per_hour: number;
}

/** The keys a site.json may leave out that the site has a value for anyway. */
type Defaulted =
  | 'languages'
  | 'super_users'
  | 'database'
  | 'root_url'
  | 'endpoints'
  | 'apis'
  | 'batches'
  | 'batch_queue'
  | 'batch_limits'
  | 'mail'
  | 'storage'
  | 'integrations';

/** site.json with its defaults filled in: what the site runs on. */
export interface SiteConfig extends Omit<SiteJson, '$schema' | Defaulted> {
  languages: string[];
  super_users: number[];
  database: string | null;
  root_url: string;
  endpoints: EndpointConfig[];
  /** Every API an endpoint names; one not listed in site.json `apis` has security `none`. */
  apis: ApiJson[];
  batches: BatchJson[];
  batch_queue: string | null;
  /** Absent: the defaults (batches/limits.ts). */
  batch_limits?: BatchLimits;
  mail: MailConfig;
  storage: LocalStorageJson | S3StorageConfig;
  integrations: IntegrationsConfig;
}

export class SiteConfigError extends Error {}

/** The mails and recipients a site may send in any 60 minutes when site.json does not say. */
const MAIL_PER_HOUR = { mails: 200, recipients: 2000 };

/** The first entry of `items` whose `key` an earlier one has, as a problem at that key. */
function repeated<T>(items: readonly T[], list: string, key: keyof T & string): JsonProblem | null {
  const seen = new Map<unknown, number>();
  for (const [i, item] of items.entries()) {
    const v = item[key];
    if (v === undefined) continue;
    const first = seen.get(v);
    if (first !== undefined)
      return { path: pointer(pointer(`/${list}`, i), key), message: `the same as /${list}/${first}/${key}` };
    seen.set(v, i);
  }
  return null;
}

/** What the schema cannot say about a site.json that conforms to it. */
function beyondSchema(json: SiteJson): JsonProblem | null {
  const batches = json.batches ?? [];
  const unscheduled = batches.findIndex((b) => b.schedule !== undefined && parseSchedule(b.schedule) === null);
  if (unscheduled >= 0)
    return {
      path: `/batches/${unscheduled}/schedule`,
      message: "must be one of the platform's schedules: */15 * * * *, */30 * * * *, 0 * * * * or M H * * *",
    };
  // A POST answers what it was sent: keeping it would answer the next POST without its work.
  const postCache = (json.endpoints ?? []).findIndex((e) => e.cache !== undefined && e.method !== 'GET');
  if (postCache >= 0) return { path: `/endpoints/${postCache}/cache`, message: 'is for GET endpoints only' };
  return (
    repeated(json.apis ?? [], 'apis', 'api_id') ??
    repeated(batches, 'batches', 'slug') ??
    repeated(batches, 'batches', 'id')
  );
}

/** The APIs listed, then one of security `none` for each other api_id an endpoint names. */
function allApis(listed: readonly ApiJson[], endpoints: readonly EndpointJson[]): ApiJson[] {
  const out = [...listed];
  for (const e of endpoints)
    if (!out.some((a) => a.api_id === e.api_id)) out.push({ api_id: e.api_id, security: 'none' });
  return out;
}

function mailConfig(mail: MailJson | undefined): MailConfig {
  const { smtp, ...rest } = mail ?? { verified_domains: [] };
  return {
    ...rest,
    ...(smtp
      ? {
          smtp: {
            ...smtp,
            secure: smtp.secure ?? false,
            starttls: smtp.starttls ?? (smtp.auth ? 'required' : 'opportunistic'),
          },
        }
      : {}),
    max_per_hour: rest.max_per_hour ?? MAIL_PER_HOUR.mails,
    max_recipients_per_hour: rest.max_recipients_per_hour ?? MAIL_PER_HOUR.recipients,
  };
}

/** Checks parsed site.json text and fills in its defaults; `where` names the file in errors. */
export function parseSiteConfig(json: unknown, where: string): SiteConfig {
  const checked = checkJson(SITE_SCHEMA, json);
  if (!checked.ok) throw new SiteConfigError(`${where}: ${problemText(checked.problem)}`);
  const problem = beyondSchema(checked.value);
  if (problem) throw new SiteConfigError(`${where}: ${problemText(problem)}`);
  const { $schema: _forEditors, batch_limits: limits, ...site } = checked.value;
  const batchLimits = limits === undefined ? undefined : parseBatchLimits(limits);
  if (typeof batchLimits === 'string') throw new SiteConfigError(`${where}: /batch_limits: ${batchLimits}`);
  const endpoints = site.endpoints ?? [];
  return {
    ...site,
    languages: site.languages ?? [site.lang],
    super_users: site.super_users ?? [],
    database: site.database ?? null,
    root_url: site.root_url ?? SITE_DEFAULTS.rootUrl,
    endpoints,
    apis: allApis(site.apis ?? [], endpoints),
    batches: site.batches ?? [],
    batch_queue: site.batch_queue ?? null,
    ...(batchLimits !== undefined ? { batch_limits: batchLimits } : {}),
    mail: mailConfig(site.mail),
    storage: site.storage ?? { type: 'local' },
    integrations: readIntegrations(site.integrations ?? {}),
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
    throw new SiteConfigError(`${file}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  return parseSiteConfig(json, file);
}

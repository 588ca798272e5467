/**
 * What the integration plugins share: their settings (an integration the site has not set up is
 * E_HOST_CAPABILITY), a bearer token from a named secret, and one JSON request through the egress
 * guard (HostAdapters.http), counted with {api}'s requests and capped in bytes.
 *
 * One rule splits what goes wrong (docs/decisions.md D111): a refusal (egress guard, secret
 * host, cap, bad attribute, missing setting) is an error at the template's line; a service that
 * cannot be reached or answers an error sets `var` to false and logs a warning.
 */
import type { BridgeCall, HostResult } from '../plugin-contract.js';
import type { HostAdapters } from '../../host-api/host.js';
import { BridgeError } from '../../host-api/errors.js';
import { isErrorCode } from '../../protocol/error-codes.js';
import { MAX_TRANSFER_DEPTH } from '../../protocol/transfer.js';
import { missingAdapter } from '../../host-api/capabilities.js';
import { chargeRequest } from '../api/common.js';
import { hostAllows } from '../api/common.js';

/** Bytes of one answer of a chat, social, token or publish service. */
export const MAX_SERVICE_RESPONSE_BYTES = 1024 * 1024;
/** How deep a service's JSON answer may nest before it is refused as a failure: what the bridge carries. */
export const MAX_ANSWER_DEPTH = MAX_TRANSFER_DEPTH;

const SECRET_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** Guard codes that mean "refused or past a limit": errors, not a failed service. */
const REFUSALS = new Set(['E_SSRF_DENIED', 'E_SECRET_DENIED', 'E_BAD_URL', 'E_BAD_HEADER', 'E_HTTP_LIMIT']);

type IntegrationField = 'chat' | 'social' | 'cloud' | 'analytics';
type SettingsOf<F extends IntegrationField> = NonNullable<
  Awaited<ReturnType<NonNullable<HostAdapters[F]>['settings']>>
>;

const LABELS: Record<IntegrationField, string> = {
  chat: 'chat',
  social: 'social network',
  cloud: 'cloud',
  analytics: 'web analytics',
};

/** The tenant's settings of one integration, or E_HOST_CAPABILITY. */
export async function settingsOf<F extends IntegrationField>(
  call: BridgeCall,
  plugin: string,
  field: F,
): Promise<SettingsOf<F>> {
  const adapter = call.host[field];
  if (!adapter) throw missingAdapter(`{${plugin}}`, field);
  const settings = await adapter.settings();
  if (!settings)
    throw new BridgeError(
      'E_HOST_CAPABILITY',
      `{${plugin}} needs the site's ${LABELS[field]} integration settings, and this site has none`,
    );
  return settings as SettingsOf<F>;
}

/** A service that could not be reached or answered an error: the plugin sets var=false. */
export class ServiceFailure extends Error {}

/** `var` = false and a warning naming what failed. */
export function failed(plugin: string, varName: unknown, e: ServiceFailure): HostResult {
  return {
    ...(typeof varName === 'string' ? { assign: [[varName, false]] } : {}),
    log: [{ level: 'warning', message: `{${plugin}} ${e.message}` }],
  };
}

/** Runs `work`; a ServiceFailure becomes var=false, anything else stays an error. */
export async function orFalse(plugin: string, varName: unknown, work: () => Promise<HostResult>): Promise<HostResult> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ServiceFailure) return failed(plugin, varName, e);
    throw e;
  }
}

/** A URL of the settings (never of the template): an embedder's mistake is E_HOST_FAILED. */
export function settingsUrl(plugin: string, base: string, suffix: string): URL {
  try {
    return new URL(base.replace(/\/+$/, '') + suffix);
  } catch {
    throw new BridgeError(
      'E_HOST_FAILED',
      `{${plugin}} the site's integration settings hold a URL that does not parse`,
    );
  }
}

/** The secret `name` of the tenant, E_SECRET_NOT_FOUND when there is none. */
export async function secretRecord(
  call: BridgeCall,
  plugin: string,
  name: string,
): Promise<{ value: string; hosts?: readonly string[] }> {
  if (!call.host.secrets) throw missingAdapter(`{${plugin}}`, 'secrets');
  const record = SECRET_NAME.test(name) ? await call.host.secrets.get(name) : null;
  if (!record) throw new BridgeError('E_SECRET_NOT_FOUND', `{${plugin}}: no secret named "${name.slice(0, 128)}"`);
  return record;
}

/**
 * `Authorization: Bearer <token>` from the secret `name`, which must allow `url`'s host (its
 * `hosts`, as for {api}: E_SECRET_DENIED otherwise). The value is issued to the render, so the
 * bridge clears it from anything the service echoes back.
 */
export async function bearerHeader(
  call: BridgeCall,
  plugin: string,
  name: string,
  url: URL,
): Promise<[string, string]> {
  const record = await secretRecord(call, plugin, name);
  const handle = call.secrets.issue(name, record);
  const value = call.secrets.substitute(
    `Bearer ${handle}`,
    `{${plugin}} a request to ${url.protocol}//${url.host}`,
    (r) => hostAllows(r, url),
  );
  return ['Authorization', value];
}

export interface ServiceRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: [string, string][];
  body?: string;
  /** Byte cap of the answer (MAX_SERVICE_RESPONSE_BYTES unless given). */
  maxBytes?: number;
}

/** True when `v` nests no deeper than `max` (arrays and objects). */
function within(v: unknown, max: number): boolean {
  if (typeof v !== 'object' || v === null) return true;
  if (max === 0) return false;
  return Object.values(v).every((x) => within(x, max - 1));
}

/**
 * What a request leaves of the render's wall time: a service that does not answer gives false
 * with a warning, and the render needs time to go on after that (50 ms was not enough on a loaded
 * machine, where the render then ended E_WALL_TIMEOUT instead).
 */
const ANSWER_MARGIN_MS = 250;

/**
 * One request with a JSON answer. Every request carries a credential, so the guard follows
 * redirects within its origin only. Answers the HTTP status and the parsed JSON.
 */
export async function requestJson(
  call: BridgeCall,
  plugin: string,
  req: ServiceRequest,
): Promise<{ status: number; json: unknown }> {
  const http = call.host.http;
  if (!http) throw missingAdapter(`{${plugin}}`, 'http');
  chargeRequest(call, plugin);
  const left = call.timeLeft();
  if (left <= ANSWER_MARGIN_MS)
    throw new BridgeError('E_WALL_TIMEOUT', `{${plugin}} no time left in the render for a request`);
  const where = `${req.url.protocol}//${req.url.host}${req.url.pathname}`;
  let res;
  try {
    res = await http.fetch({
      method: req.method,
      url: req.url.href,
      headers: req.headers,
      ...(req.body !== undefined ? { body: req.body } : {}),
      timeoutMs: Math.min(30_000, left - ANSWER_MARGIN_MS),
      secretHeaders: req.headers.filter(([n]) => n.toLowerCase() === 'authorization').map(([n]) => n),
      secretBody: req.body !== undefined,
    });
  } catch (e) {
    if (e instanceof BridgeError) throw e;
    const code = (e as { code?: unknown } | null)?.code;
    const reason = e instanceof Error ? e.message.replace(/: ".*"$/s, '') : 'request failed';
    if (isErrorCode(code) && REFUSALS.has(code)) throw new BridgeError(code, `{${plugin}} ${reason}: ${where}`);
    throw new ServiceFailure(`${code === 'E_HTTP_TIMEOUT' ? 'request timed out' : reason}: ${where}`);
  }
  const max = req.maxBytes ?? MAX_SERVICE_RESPONSE_BYTES;
  if (res.body.length > max)
    throw new BridgeError('E_SIZE_LIMIT', `{${plugin}} the answer of ${where} is larger than ${max} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(res.body).toString('utf8'));
  } catch {
    throw new ServiceFailure(`${where} answered HTTP ${res.status} without JSON`);
  }
  if (!within(json, MAX_ANSWER_DEPTH))
    throw new ServiceFailure(`${where} answered JSON nested deeper than ${MAX_ANSWER_DEPTH} levels`);
  return { status: res.status, json };
}

/** A plain JSON object, or null. */
export function record(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

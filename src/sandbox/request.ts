/**
 * The request a render sends into the isolate (src/protocol/render.ts `RenderRequest`),
 * built in one place for the engine, the spare's warm-up render and the benchmark. The limits
 * that travel with it (output and error sizes) are added at the call (`withLimits`).
 */
import type { RenderRequest } from '../protocol/render.js';
import type { SiteSettings } from '../plugins/types.js';
import type { SandboxLimits } from './limits.js';
import { renderVars } from '../protocol/vars.js';
import { encodeTables } from '../protocol/tables.js';

/** Includes and {function} calls nest at most this deep (E_RECURSION_LIMIT beyond). */
export const MAX_INCLUDE_DEPTH = 32;

export type RenderRequestBody = Omit<RenderRequest, 'maxOutputChars' | 'maxErrorChars'>;

export interface RenderRequestInput {
  templateName: string;
  /** Unix time the render sees as "now". */
  now: number;
  site: SiteSettings;
  /** Plain data or JSON text, as an embedder gives them (RenderOptions.vars); null: none. */
  vars: Record<string, unknown> | string | null;
  /** 16 bytes for the render's random generator. */
  seed: readonly number[];
  validate?: boolean;
  objects?: boolean;
  request?: Record<string, unknown>;
  constants?: Record<string, unknown>;
  returnJson?: boolean;
}

export function renderRequest(i: RenderRequestInput): RenderRequestBody {
  return {
    templateName: i.templateName,
    now: i.now,
    site: i.site,
    validate: i.validate ?? false,
    vars: renderVars(i.vars, i.objects ?? false),
    request: i.request ?? {},
    constants: i.constants ?? {},
    maxIncludeDepth: MAX_INCLUDE_DEPTH,
    seed: i.seed,
    ...(i.returnJson ? { returnJson: true } : {}),
  };
}

/** The request as the isolate receives it: the body and the sizes the runtime enforces itself. */
export function withLimits(
  body: RenderRequestBody,
  limits: Pick<SandboxLimits, 'maxOutputChars' | 'maxErrorChars'>,
): RenderRequest {
  return { ...body, maxOutputChars: limits.maxOutputChars, maxErrorChars: limits.maxErrorChars };
}

/**
 * The request with its plain variables' lists of rows as tables (src/protocol/tables.ts), when
 * they have any: fewer objects for the isolate's deserializer. Vars read as stdClass objects go as
 * they are (their conversion is eager and reads no table).
 */
export function withTables(body: RenderRequestBody): RenderRequestBody {
  const vars = body.vars;
  if (vars.format !== 'plain' || vars.objects) return body;
  const value = encodeTables(vars.value);
  return value === null ? body : { ...body, vars: { format: 'tables', value } };
}

/**
 * The request as JSON text, when it holds no data of the embedder's (no variables, request data
 * or constants) and JSON gives back each of its fields as it is; else null, and it crosses as a
 * structured clone (docs/decisions.md D299). A string is copied into the isolate as one
 * primitive: the clone of an empty render's request (its ExternalCopy made and released here,
 * its site, seed and empty records deserialized there) cost ~10 µs of its ~50. A request with
 * data stays a clone: beside the clone of the data, the rest as JSON saved nothing measurable.
 */
export function requestText(req: RenderRequest): string | null {
  const { vars, request, constants } = req;
  if (vars.format !== 'none' && ('text' in vars || !isEmpty(vars.value))) return null;
  if ((request !== undefined && !isEmpty(request)) || (constants !== undefined && !isEmpty(constants))) return null;
  for (const k in HEAD_FIELDS) {
    const key = k as keyof typeof HEAD_FIELDS;
    if (!(HEAD_FIELDS[key] as (v: unknown) => boolean)(req[key])) return null;
  }
  return JSON.stringify(req);
}

/** A plain object without an enumerable property: it clones and writes as `{}` alike (a Date would not). */
function isEmpty(o: object): boolean {
  const proto = Object.getPrototypeOf(o) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const _ in o) return false;
  return true;
}

/** A number JSON writes and reads back as it is (not NaN, an infinity or -0). */
const exactNumber = (n: unknown): boolean => typeof n === 'number' && Number.isFinite(n) && !Object.is(n, -0);

/** The fields of a request that hold the embedder's data: `requestText` wants them empty. */
type DataKey = 'vars' | 'request' | 'constants';

/**
 * Each field of the request outside its data, and when JSON gives it back as it is. Typed by the
 * request's keys: a field added to RenderRequest does not compile until it is listed here.
 */
const HEAD_FIELDS: { [K in Exclude<keyof RenderRequest, DataKey>]-?: (v: RenderRequest[K]) => boolean } = {
  templateName: (v) => typeof v === 'string',
  now: exactNumber,
  site: (v) =>
    typeof v === 'object' &&
    v !== null &&
    typeof v.timezone === 'string' &&
    typeof v.lang === 'string' &&
    typeof v.rootUrl === 'string',
  validate: (v) => typeof v === 'boolean',
  maxIncludeDepth: exactNumber,
  seed: (v) => Array.isArray(v) && v.every(exactNumber),
  maxOutputChars: exactNumber,
  maxErrorChars: exactNumber,
  returnJson: (v) => v === undefined || v === true,
};

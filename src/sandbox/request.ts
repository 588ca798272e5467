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

/**
 * The script every isolate runs first. It defines one global, `smartcage`, through which the
 * host registers compiled templates and renders them. Nothing else is exposed.
 *
 * Values cross the boundary as plain data (structured clone): variables come in as
 * JSON-like values and are converted to PHP values here; the output goes back as a string.
 */
import { rt, setCurrent, type TemplateApi } from './template-api.js';
import { RenderState, type RenderInput } from './render-state.js';
import { fromJS, toJS, type Value } from './value.js';
import type { Scope } from './assign.js';
import { parseVarsJson } from './vars-json.js';

type Render = (s: Scope, $: RenderState) => string;

const templates = new Map<string, Render>();

export interface RenderRequest extends Omit<RenderInput, 'request' | 'constants'> {
  /** Variables as plain data, or as JSON text (which keeps PHP's key order exactly). */
  vars: Record<string, unknown> | string | null;
  /** JSON objects in vars become stdClass objects instead of arrays. */
  objects?: boolean;
  request?: Record<string, unknown>;
  constants?: Record<string, unknown>;
}

export interface RenderResponse {
  output: string;
  warnings: string[];
  logs: { level: string; message: string }[];
  returnValue: unknown;
}

const smartcage = {
  define(name: string, factory: (api: TemplateApi) => Render): void {
    templates.set(name, factory(rt));
  },

  has(name: string): boolean {
    return templates.has(name);
  },

  render(name: string, req: RenderRequest): RenderResponse {
    const fn = templates.get(name);
    if (!fn) throw new Error(`template not loaded: ${name}`);
    const scope = buildScope(req);
    const request: Record<string, Value> = {};
    for (const [k, v] of Object.entries(req.request ?? {})) request[k] = fromJS(v);
    const constants: Record<string, Value> = {};
    for (const [k, v] of Object.entries(req.constants ?? {})) constants[k] = fromJS(v);
    const $ = new RenderState(scope, { ...req, request, constants });
    const previous = setCurrent($);
    try {
      const output = fn(scope, $);
      return { output, warnings: $.warnings, logs: $.logs, returnValue: toJS($.returnValue) };
    } finally {
      setCurrent(previous);
    }
  },
};

function buildScope(req: RenderRequest): Scope {
  const scope: Scope = Object.create(null);
  // The platform's predefined $dataSet.emptyArray (an empty array to start from).
  scope.dataSet = fromJS({ emptyArray: [] });
  const vars = typeof req.vars === 'string' ? parseVarsJson(req.vars, req.objects ?? false) : req.vars;
  if (vars && typeof vars === 'object' && !Array.isArray(vars)) {
    if (vars instanceof Map) for (const [k, v] of vars) scope[k] = v as Value;
    else for (const [k, v] of Object.entries(vars)) scope[k] = fromJS(v, req.objects ?? false);
  }
  return scope;
}

(globalThis as unknown as { smartcage: typeof smartcage }).smartcage = smartcage;

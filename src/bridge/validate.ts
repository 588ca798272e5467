/**
 * Host-side check of every attribute of a privileged plugin call against the plugin's
 * declaration: types, required, enum, bounds, and sizes. The isolate's view is never trusted.
 */
import { PhpArray, PhpFloat, type Value } from '../value/value.js';
import type { AttrSpec, FunctionPlugin } from '../plugins/types.js';
import { BridgeError } from '../host-api/errors.js';

const MAX_STRING = 1024 * 1024;
/** A variable name as {assign} takes it: `a`, `a.b.c`, `list.` (append). */
export const VARNAME = /^[A-Za-z_]\w*(?:\.\w+){0,3}\.?$/;

export function validateAttrs(plugin: FunctionPlugin, attrs: Record<string, Value>): Record<string, Value> {
  const out: Record<string, Value> = Object.create(null);
  for (const name of Object.keys(attrs)) {
    if (!Object.prototype.hasOwnProperty.call(plugin.attrs, name) && !plugin.extraAttrs) {
      throw new BridgeError('E_BAD_ATTRIBUTE', `{${plugin.name}} has no attribute ${name}`);
    }
  }
  for (const [name, spec] of Object.entries(plugin.attrs)) {
    const v = Object.prototype.hasOwnProperty.call(attrs, name) ? attrs[name] : undefined;
    if (v === undefined || v === null) {
      if (spec.required) throw new BridgeError('E_BAD_ATTRIBUTE', `{${plugin.name}} needs the attribute ${name}`);
      if (spec.default !== undefined) out[name] = spec.default;
      continue;
    }
    out[name] = checkOne(plugin.name, name, spec, v);
  }
  if (plugin.extraAttrs) {
    for (const name of Object.keys(attrs))
      if (!(name in out) && !Object.hasOwn(plugin.attrs, name)) out[name] = attrs[name];
  }
  return out;
}

function checkOne(plugin: string, name: string, spec: AttrSpec, v: Value): Value {
  const bad = (why: string): never => {
    throw new BridgeError('E_BAD_ATTRIBUTE', `{${plugin}} ${name}= ${why}`);
  };
  let value: Value = v;
  switch (spec.type) {
    case 'string': {
      if (typeof v === 'number' || typeof v === 'bigint' || v instanceof PhpFloat)
        value = String(v instanceof PhpFloat ? v.value : v);
      else if (typeof v !== 'string') bad('must be a string');
      const longest = Math.min(MAX_STRING, spec.maxLength ?? MAX_STRING);
      if ((value as string).length > longest) bad(`is longer than ${longest} characters`);
      break;
    }
    case 'varname':
      if (typeof v !== 'string' || !VARNAME.test(v)) bad('must be a variable name');
      break;
    case 'int': {
      // An int past 2^53 reaches a host plugin as its nearest double, as every number attribute does.
      const n =
        typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim())
          ? Number(v.trim())
          : typeof v === 'bigint'
            ? Number(v)
            : v;
      if (typeof n !== 'number' || !Number.isInteger(n)) bad('must be an integer');
      value = n;
      break;
    }
    case 'number': {
      const n =
        typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())
          ? Number(v.trim())
          : v instanceof PhpFloat
            ? v.value
            : typeof v === 'bigint'
              ? Number(v)
              : v;
      if (typeof n !== 'number' || !Number.isFinite(n)) bad('must be a number');
      value = n;
      break;
    }
    case 'bool':
      if (typeof v === 'boolean') break;
      if (v === 0 || v === 1 || v === '0' || v === '1') value = v === 1 || v === '1';
      else if (v === 'true' || v === 'false') value = v === 'true';
      else bad('must be true or false');
      break;
    case 'array':
      if (!(v instanceof PhpArray)) bad('must be an array');
      break;
    case 'mixed':
      break;
  }
  if (spec.enum && !spec.enum.includes(String(value))) bad(`must be one of ${spec.enum.join(', ')}`);
  if (typeof value === 'number') {
    if (spec.min !== undefined && value < spec.min) bad(`must be at least ${spec.min}`);
    if (spec.max !== undefined && value > spec.max) bad(`must be at most ${spec.max}`);
  }
  return value;
}

/** Small readers of a schema's type, shared by detection, required marks and initial values. */
import type { JsonSchema, JsonValue, SchemaTypeName } from './types.js';

export function isSchema(x: unknown): x is JsonSchema {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The listed types (a bare type becomes a one-element list; no type gives []). */
export function typesOf(schema: JsonSchema): SchemaTypeName[] {
  const t = schema.type;
  if (t === undefined) return [];
  return (Array.isArray(t) ? t : [t]) as SchemaTypeName[];
}

/** The type without "null": `["string","null"]` gives "string"; undefined when none or several. */
export function baseType(schema: JsonSchema): SchemaTypeName | undefined {
  const nonNull = typesOf(schema).filter((t) => t !== 'null');
  return nonNull.length === 1 ? nonNull[0] : undefined;
}

/** True when the type admits null (`["T","null"]`). */
export function allowsNull(schema: JsonSchema): boolean {
  return typesOf(schema).includes('null');
}

export function hasEnum(schema: JsonSchema): schema is JsonSchema & { enum: JsonValue[] } {
  return Array.isArray(schema.enum);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** JSON Schema equality of two JSON values (key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}

export function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** Escapes one JSON-pointer segment. */
export function pointerSegment(s: string | number): string {
  return String(s).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointer(path: ReadonlyArray<string | number>): string {
  return path.map((s) => '/' + pointerSegment(s)).join('');
}

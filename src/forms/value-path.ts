/** Immutable reads and writes of a JSON value by path, and the schema that governs a path. */
import { isSchema } from './schema-util.js';
import type { JsonSchema, JsonValue, Path } from './types.js';

export function getAt(value: JsonValue, path: Path): JsonValue | undefined {
  let cur: JsonValue | undefined = value;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = Array.isArray(cur) ? (typeof seg === 'number' ? cur[seg] : undefined) : cur[String(seg)];
  }
  return cur;
}

/** A new value with `path` set to `v`; containers along the path are copied, the rest shared. */
export function setAt(value: JsonValue, path: Path, v: JsonValue): JsonValue {
  if (path.length === 0) return v;
  const [head, ...rest] = path;
  if (Array.isArray(value) && typeof head === 'number') {
    const copy = value.slice();
    copy[head] = setAt(value[head] ?? null, rest, v);
    return copy;
  }
  const obj = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
  return { ...obj, [String(head)]: setAt(obj[String(head)] ?? null, rest, v) };
}

/** The schema for a value path: property names go through `properties`, indexes through `items`. */
export function schemaAt(schema: JsonSchema, path: Path): JsonSchema | undefined {
  let cur: JsonSchema | undefined = schema;
  for (const seg of path) {
    if (!cur) return undefined;
    if (typeof seg === 'number') cur = isSchema(cur.items) ? cur.items : undefined;
    else cur = isSchema(cur.properties) && isSchema(cur.properties[seg]) ? cur.properties[seg] : undefined;
  }
  return cur;
}

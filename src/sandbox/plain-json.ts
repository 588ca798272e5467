/**
 * Variables as JSON text for the trip to a sandbox worker, when that changes nothing.
 *
 * Plain data goes to a worker by structured clone twice: the IPC channel serializes it and the
 * worker deserializes it into objects, then the worker serializes it again into the isolate
 * (isolated-vm's ExternalCopy). As JSON text it is serialized once here and parsed once in the
 * isolate, and the worker only passes a string on; per render of the benchmark page through one
 * worker that was ~115 µs less CPU (docs/decisions.md D31).
 *
 * The text crosses the IPC channel as UTF-8 bytes, not as a string. Node's channel serializer
 * flattens the rope that JSON.stringify returns into a new string of the whole text on this
 * process's heap, and those strings outlived the young generation: the engine process's
 * scavenges took 9-15 ms instead of 2-3, and its CPU per render of the benchmark page was 740
 * against 631 µs with bytes (docs/decisions.md D31). Bytes are copied outside the heap.
 * JSON.stringify escapes lone surrogates, so the text is well-formed and UTF-8 carries it exactly.
 *
 * JSON and structured clone differ, so the text is made only for data on which they agree for
 * everything the isolate's `fromJS` reads: finite numbers other than -0, strings, booleans, null,
 * arrays, and objects whose prototype is Object.prototype or null, with no `toJSON` and no
 * undefined, function or symbol value under a key. Anything else (a Date, NaN, a Map, a class
 * instance, a cycle...) makes this return null, and the data goes by structured clone as before.
 */

import type { RenderRequestBody } from './request.js';
import type { WireRequest } from './worker-protocol.js';

/** Beyond this many values, or this depth, the data goes by structured clone (no blow-up here on shared references). */
const MAX_VALUES = 200_000;
const MAX_DEPTH = 200;

export function plainJson(data: unknown): string | null {
  let budget = MAX_VALUES;

  const plain = (v: unknown, depth: number): boolean => {
    if (--budget < 0 || depth > MAX_DEPTH) return false;
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return true;
      case 'number':
        return Number.isFinite(v) && !Object.is(v, -0);
      case 'object': {
        if (v === null) return true;
        if (Array.isArray(v)) {
          if (Object.getPrototypeOf(v) !== Array.prototype) return false;
          // Holes and undefined read as null on both paths.
          for (let i = 0; i < v.length; i++) {
            const x: unknown = v[i];
            if (x !== undefined && !plain(x, depth + 1)) return false;
          }
          return true;
        }
        const proto: unknown = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null) return false;
        if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
        for (const k in v) {
          if (!Object.prototype.hasOwnProperty.call(v, k)) return false;
          const x: unknown = (v as Record<string, unknown>)[k];
          // JSON drops such a key; structured clone keeps it (undefined) or refuses the data.
          if (x === undefined || !plain(x, depth + 1)) return false;
        }
        return true;
      }
      default:
        return false;
    }
  };

  if (!plain(data, 0)) return null;
  try {
    return JSON.stringify(data);
  } catch {
    return null;
  }
}

/** The request as it goes to a worker: plain-data variables as UTF-8 JSON text when `plainJson` allows. */
export function requestToWire(body: RenderRequestBody): WireRequest {
  const vars = body.vars;
  if (vars === null || typeof vars !== 'object') return body;
  const text = plainJson(vars);
  return text === null ? body : { ...body, vars: null, plainVarsUtf8: Buffer.from(text, 'utf8') };
}

/** The request as the worker hands it to the isolate: the JSON text back as a string (`plainVars`). */
export function requestFromWire(wire: WireRequest): RenderRequestBody {
  const { plainVarsUtf8: bytes, ...body } = wire;
  if (!bytes) return body;
  return { ...body, plainVars: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
}

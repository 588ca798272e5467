/**
 * Variables as JSON text for the trip to a sandbox worker, when that changes nothing.
 *
 * Plain data goes to a worker by structured clone twice: the IPC channel serializes it and the
 * worker deserializes it into objects, then the worker serializes it again into the isolate
 * (isolated-vm's ExternalCopy). As JSON text it is serialized once here and parsed once in the
 * isolate, and the worker only passes a string on; per render of the benchmark page through one
 * worker that was ~115 µs less CPU (docs/decisions.md D31).
 *
 * The text is written as UTF-8 straight into the frame that goes to the worker
 * (src/sandbox/frames.ts), and read out of it there: no copy of it is made on this process's heap
 * (Node's IPC channel made one, whose strings outlived the young generation: docs/decisions.md
 * D31). JSON.stringify escapes lone surrogates, so the text is well-formed and UTF-8 carries it exactly.
 *
 * JSON and structured clone differ, so the text is made only for data on which they agree for
 * everything the isolate's `fromJS` reads: finite numbers other than -0, strings, booleans, null,
 * arrays, and objects whose prototype is Object.prototype or null, with no `toJSON` and no
 * undefined, function or symbol value under a key. Anything else (a Date, NaN, a Map, a class
 * instance, a cycle...) makes this return null, and the data goes by structured clone as before.
 *
 * Such data whose lists of rows can be tables (src/protocol/tables.ts) goes as the tables' JSON
 * text (`tables-json`), as an in-process render's structured clone carries them (D281): the
 * isolate's JSON.parse, like the deserializer, costs per object, and a row's keys are written once
 * per table instead of once per row (docs/decisions.md D296).
 */

import type { RenderRequestBody } from './request.js';
import { encodeTables } from '../protocol/tables.js';

/** Beyond this many values, or this depth, the data goes by structured clone (no blow-up here on shared references). */
const MAX_VALUES = 200_000;
const MAX_DEPTH = 200;

export function plainJson(data: unknown): string | null {
  return isPlain(data) ? stringify(data) : null;
}

/** Whether JSON text carries `data` as structured clone would (the rules above). */
function isPlain(data: unknown): boolean {
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

  return plain(data, 0);
}

function stringify(data: unknown): string | null {
  try {
    return JSON.stringify(data);
  } catch {
    return null;
  }
}

/**
 * The request as it goes to a worker: plain-data variables as JSON text (whose text is the frame's
 * body: src/sandbox/worker-protocol.ts) when `plainJson` allows, else as they are. The text is of
 * their tables (`tables-json`) when they have any and are not read as objects (as `withTables`
 * decides in process: src/sandbox/request.ts), else of the data (`plain-json`).
 */
export function plainVarsOf(body: RenderRequestBody): RenderRequestBody {
  const vars = body.vars;
  if (vars.format !== 'plain' || !isPlain(vars.value)) return body;
  const tables = vars.objects ? null : encodeTables(vars.value);
  const text = stringify(tables ?? vars.value);
  if (text === null) return body;
  return {
    ...body,
    vars: tables === null ? { format: 'plain-json', text, objects: vars.objects } : { format: 'tables-json', text },
  };
}

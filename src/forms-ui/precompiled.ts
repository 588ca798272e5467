/**
 * Precompiled validators in the browser (docs/decisions.md D45): the scripts made by
 * `standaloneValidatorScript` (src/forms/standalone.ts) push `{schema, factory}` to the global
 * `SmartcageValidators`; `precompiledValidator(schema)` runs the factory of the entry whose
 * schema is the same JSON, with the only modules such code may require, and wraps it with
 * `validatorFromCompiled`. Nothing here compiles code, so it works under
 * `script-src 'self'` without `'unsafe-eval'`.
 */
import ucs2length from 'ajv/dist/runtime/ucs2length.js';
import equal from 'ajv/dist/runtime/equal.js';
import { formFormats, validatorFromCompiled, type CompiledValidate, type FormValidator } from '../forms/index.js';

interface Entry {
  schema: unknown;
  factory(require: (name: string) => unknown, module: { exports: unknown }, exports: unknown): void;
}

let formats: ReturnType<typeof formFormats> | undefined;

/** The function of a CommonJS runtime module, however the bundler hands its default over. */
function fnOf(m: unknown): unknown {
  return typeof m === 'function' ? m : (m as { default?: unknown }).default;
}

function runtimeRequire(name: string): unknown {
  switch (name) {
    case 'smartcage:formats':
      return (formats ??= formFormats());
    case 'ajv/dist/runtime/ucs2length':
      return { default: fnOf(ucs2length) };
    case 'ajv/dist/runtime/equal':
      return { default: fnOf(equal) };
    default:
      throw new Error(`precompiled validator requires unknown module "${name}"`);
  }
}

const cache = new WeakMap<Entry, CompiledValidate>();

/** The registered precompiled validator for exactly this schema (same JSON), or undefined. */
export function precompiledValidator(schema: unknown): FormValidator | undefined {
  const list = (globalThis as { SmartcageValidators?: Entry[] }).SmartcageValidators;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const key = JSON.stringify(schema);
  const entry = list.find((e) => JSON.stringify(e.schema) === key);
  if (!entry) return undefined;
  let fn = cache.get(entry);
  if (!fn) {
    const module = { exports: {} as unknown };
    entry.factory(runtimeRequire, module, module.exports);
    fn = module.exports as CompiledValidate;
    cache.set(entry, fn);
  }
  return validatorFromCompiled(schema, fn);
}

/**
 * Precompiled validators for pages with a strict Content-Security-Policy (docs/decisions.md
 * D45): ajv compiles a schema into JavaScript source on the server
 * (ajv "standalone" code), and the page loads it as an ordinary script from its own origin
 * (`script-src 'self'`, no `'unsafe-eval'`). The script registers itself in the global array
 * `SmartcageValidators`; `<json-field-form>` takes the entry whose schema is the same JSON
 * and wraps it with `validatorFromCompiled` (same lint, same error mapping, same messages).
 *
 * The generated code `require`s only what `PRECOMPILED_RUNTIME` lists; the browser bundle
 * provides exactly those (src/forms-ui/precompiled.ts), with the formats of `formFormats()`.
 * No Node API here: this module also runs in tests in the browser's place.
 */
import standaloneModule from 'ajv/dist/standalone/index.js';
import { _, Name } from 'ajv';
import { createAjv, stripNullable } from './ajv-setup.js';
import { lintSchema, schemaErrors } from './lint.js';
import { message } from './messages.js';
import { FormSchemaError } from './schema-error.js';
import type { JsonSchema } from './types.js';

type StandaloneCode = (ajv: ReturnType<typeof createAjv>, refsOrFunc?: unknown) => string;
const standaloneCode: StandaloneCode =
  (standaloneModule as unknown as { default?: StandaloneCode }).default ??
  (standaloneModule as unknown as StandaloneCode);

/** The module name under which the generated code finds `formFormats()`. */
const FORMATS_MODULE = 'smartcage:formats';

/** Every module the generated code may load with its `require` (checked when the script is made). */
const PRECOMPILED_RUNTIME = [FORMATS_MODULE, 'ajv/dist/runtime/ucs2length', 'ajv/dist/runtime/equal'] as const;

/** The name of the global array the scripts push to. */
const REGISTRY_GLOBAL = 'SmartcageValidators';

/**
 * The ajv standalone source of a schema's validator (CommonJS: `module.exports = validate`).
 * Throws FormSchemaError for a schema the form refuses (lint errors, compile failure).
 */
export function standaloneValidatorSource(schema: unknown): string {
  const issues = lintSchema(schema);
  const errors = schemaErrors(issues);
  if (errors.length > 0) {
    throw new FormSchemaError(
      'schema-invalid',
      message('schema.invalid', { count: errors.length, first: errors[0]!.message }),
      issues,
    );
  }
  // the generated code reads the formats as `require` of FORMATS_MODULE
  const ajv = createAjv({ code: { source: true, formats: _`${new Name('require')}(${FORMATS_MODULE})` } });
  let source: string;
  try {
    source = standaloneCode(ajv, ajv.compile(stripNullable(schema as JsonSchema)));
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    throw new FormSchemaError(
      'schema-invalid',
      message('schema.compile', { detail: { en: detail, ja: detail } }),
      issues,
    );
  }
  for (const m of source.matchAll(/\brequire\(("(?:[^"\\]|\\.)*")\)/g)) {
    const name: unknown = JSON.parse(m[1]!);
    if (typeof name !== 'string' || !PRECOMPILED_RUNTIME.some((r) => r === name)) {
      throw new Error(
        `precompiled validator needs the module "${name}", which the browser runtime does not provide (src/forms-ui/precompiled.ts)`,
      );
    }
  }
  return source;
}

/**
 * A browser script (no eval, no inline code needed) that registers the precompiled validator
 * of `schema`: `(self.SmartcageValidators ||= []).push({schema, factory})`. Serve it from the
 * page's origin and load it before (or after) dist/forms-ui.js.
 */
export function standaloneValidatorScript(schema: unknown): string {
  const source = standaloneValidatorSource(schema);
  const json = JSON.stringify(schema)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `/* precompiled by smartcage (ajv standalone); schema and validator */
(self.${REGISTRY_GLOBAL} = self.${REGISTRY_GLOBAL} || []).push({ schema: ${json}, factory: function (require, module, exports) {
${source}
} });
`;
}

/**
 * A schema the user brings to `smartcage serve` (`--schema FILE`, the paste box) checked the way
 * the samples are served: the forms lint, then its validator precompiled (ajv standalone code,
 * docs/decisions.md D45), so a schema that passes here has a working demo page.
 */
import { FormSchemaError, lintSchema, type JsonSchema } from '../../forms/index.js';
import { standaloneValidatorScript } from '../../forms/standalone.js';
import type { Lang } from '../ui-text.js';

export type CheckedSchema =
  /** `notes`: why the form UI refuses it (too deep, not an object): its page shows the JSON editor. */
  | { ok: true; schema: JsonSchema; script: string; notes: string[] }
  /** `problems`: the refusal first, then each lint error as `path: message`. */
  | { ok: false; problems: string[] };

export function checkPageSchema(schema: unknown, lang: Lang): CheckedSchema {
  let script: string;
  try {
    script = standaloneValidatorScript(schema);
  } catch (e) {
    if (!(e instanceof FormSchemaError)) throw e;
    const errors = e.issues.filter((i) => i.level === 'error');
    return {
      ok: false,
      problems: [e.localized[lang], ...errors.map((i) => `${i.schemaPath || '/'}: ${i.message[lang]}`)],
    };
  }
  const notes = lintSchema(schema)
    .filter((i) => i.level === 'form')
    .map((i) => i.message[lang]);
  return { ok: true, schema: schema as JsonSchema, script, notes };
}

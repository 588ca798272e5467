/**
 * `smartcage form validate SCHEMA.json VALUE.json [--lang ja] [--json]`: validates a value
 * against a JSON-type extension field's schema with the same validator as the form UI and
 * `POST /api/validate`, and prints the errors as `PATH: message [keyword]`.
 *
 * Exit status: 0 valid; 1 the value is invalid, or the schema is refused, or a file is not
 * JSON; 2 wrong usage; 3 a file cannot be read.
 */
import { parseArgs, stringOption, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { CliFileError, readText } from './files.js';
import type { Command } from '../main.js';

function readJson(path: string, what: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const text = readText(path);
  try {
    const value: unknown = JSON.parse(text);
    return { ok: true, value };
  } catch (e) {
    return { ok: false, message: `${what} ${path} is not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
}

export const formCommand: Command = {
  name: 'form',
  summary: 'Validate a JSON value against a JSON-schema field (exit 1 when invalid).',
  usage: [
    'smartcage form validate SCHEMA.json VALUE.json [--lang en|ja] [--json]',
    '',
    '  --lang ja   messages in Japanese (default English)',
    '  --json      print the errors as a JSON array (path, keyword, message, field)',
    '',
    'Exit status: 0 valid, 1 invalid value or schema (or not JSON), 2 wrong usage, 3 unreadable file.',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, { lang: { type: 'string' }, json: { type: 'boolean' } });
    const [sub, schemaFile, valueFile, ...extra] = positionals;
    if (sub !== 'validate')
      throw new UsageError(sub === undefined ? 'form needs a subcommand: validate' : `unknown subcommand "${sub}"`);
    if (!schemaFile || !valueFile) throw new UsageError('form validate needs SCHEMA.json and VALUE.json');
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const lang = stringOption(values, 'lang') ?? 'en';
    if (lang !== 'en' && lang !== 'ja') throw new UsageError('--lang is en or ja');
    // Loaded here, not at the top: ajv is an optional peer dependency, and the other commands run without it.
    const { createValidator, FormSchemaError } = await import('../../forms/index.js');
    try {
      const schema = readJson(schemaFile, 'schema');
      const value = readJson(valueFile, 'value');
      const unread = (r: { message: string }) => {
        process.stderr.write(`smartcage form: ${r.message}\n`);
        return EXIT.TEMPLATE_ERROR;
      };
      if (!schema.ok) return unread(schema);
      if (!value.ok) return unread(value);
      let validator;
      try {
        validator = createValidator(schema.value);
      } catch (e) {
        if (!(e instanceof FormSchemaError)) throw e;
        process.stderr.write(`smartcage form: ${schemaFile}: ${e.localized[lang]}\n`);
        for (const i of e.issues.filter((x) => x.level === 'error'))
          process.stderr.write(`  ${i.schemaPath || '/'}: ${i.message[lang]} [${i.code}]\n`);
        return EXIT.TEMPLATE_ERROR;
      }
      const errors = validator.validate(value.value);
      if (values.json === true) {
        process.stdout.write(
          JSON.stringify(
            errors.map((e) => ({ path: e.path, keyword: e.keyword, message: e.message[lang], field: e.field })),
            null,
            2,
          ) + '\n',
        );
      } else {
        for (const e of errors) process.stdout.write(`${e.path || '/'}: ${e.message[lang]} [${e.keyword}]\n`);
      }
      const summary =
        lang === 'ja'
          ? errors.length === 0
            ? '値は有効です'
            : `${errors.length}件のエラー`
          : errors.length === 0
            ? 'valid'
            : `${errors.length} error(s)`;
      process.stderr.write(`${valueFile}: ${summary}\n`);
      return errors.length === 0 ? EXIT.OK : EXIT.TEMPLATE_ERROR;
    } catch (e) {
      if (!(e instanceof CliFileError)) throw e;
      process.stderr.write(`smartcage form: ${e.message}\n`);
      return EXIT.IO;
    }
  },
};

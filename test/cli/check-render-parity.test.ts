/**
 * `smartcage check` reports every refusal `render` makes before a template runs (issue: a 5 MB
 * template and a bare {sendmail} passed check and failed render). The refusals are enumerated
 * from the source, not listed by hand: every error code of src/protocol/error-codes.ts that the
 * compiler (src/compiler, the grammar) produces, and the engine's own size check. Each has a
 * template here that render refuses with that code, and check must report the same code for it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODE_MEANINGS } from '../../src/protocol/error-codes.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { pluginEntries } from '../../src/plugins/reference.js';
import { templateError, testEngine } from '../support/engine.js';
import { ROOT, requireBuild, runBin } from '../support/bin.js';

/** Codes the compiler's files name that are not a refusal of the template itself, and why. */
const NOT_REFUSALS: Record<string, string> = {
  E_COMPILE_BUSY: 'the compile thread is overloaded: a refusal of the moment, not of the template',
  E_INTERNAL: 'a bug in the compiler, not a property of the template',
  E_DEFAULT_MODIFIERS: 'a wrong defaultModifiers list of the engine or site.json, not of the template',
  E_OUTPUT_LIMIT: 'named in a comment of generated loops; a limit of the running render',
  // Reached by a catalogue name with no implementation; the last test keeps this true.
  E_NOT_IMPLEMENTED: 'every tag and modifier of the catalogue is implemented',
};

const big = (n: number): string => 'x'.repeat(n + 1);

/** A template render refuses with the code, and the templates it includes. */
const CASES: Record<string, { template: string; includes?: Record<string, string> }[]> = {
  E_SYNTAX: [{ template: '{$a.}' }],
  E_UNCLOSED_COMMENT: [{ template: '{* never closed' }],
  E_UNCLOSED_LITERAL: [{ template: '{literal} never closed' }],
  E_UNCLOSED_TAG: [{ template: '{if $a}x' }],
  E_IF_EMPTY: [{ template: '{if}x{/if}' }],
  E_IF_SYNTAX: [{ template: '{if $a ===}x{/if}' }],
  E_IF_IS: [{ template: '{if $a is big}x{/if}' }],
  E_MODIFIER_ARG: [{ template: '{$a|truncate:}' }],
  E_DQ_VARIABLE: [{ template: '{assign var=x value="$a.b"}' }],
  E_UNDEFINED_CONSTANT: [{ template: '{if foo}x{/if}' }],
  E_NESTING_TOO_DEEP: [
    { template: `${'{if $a}'.repeat(201)}${'{/if}'.repeat(201)}` },
    { template: `{if ${'('.repeat(250)}$a${')'.repeat(250)}}x{/if}` },
    { template: `{$a${'|default:$a'.repeat(300)}}` },
  ],
  E_MISMATCHED_TAG: [{ template: '{if $a}{/foreach}' }],
  E_UNEXPECTED_CLOSE: [{ template: '{/if}' }],
  E_UNEXPECTED_TAG: [{ template: '{else}' }],
  E_UNKNOWN_TAG: [{ template: '{no_such_tag}' }],
  E_UNKNOWN_MODIFIER: [{ template: '{$a|no_such_modifier}' }],
  E_MODIFIER_ARGS: [{ template: '{$a|replace}' }],
  // A bare {sendmail} (a recipient is one of six attributes), and a required attribute.
  E_MISSING_ATTR: [
    { template: '{sendmail}' },
    { template: '{sendmail subject="hi" contents="x"}' },
    { template: '{foreach item=i}{/foreach}' },
  ],
  E_UNKNOWN_ATTR: [{ template: '{counter nothing=1}' }],
  E_BAD_ATTR: [{ template: '{foreach from=$a item="a b"}{/foreach}' }],
  E_IF_FUNCTION: [{ template: '{if count()}x{/if}' }],
  E_OUTSIDE_LOOP: [{ template: '{break}' }],
  E_SMARTY_VAR: [{ template: '{$smarty}' }],
  E_MEMORY_CLASS: [{ template: '{set_memory size="1G"}' }],
  E_DYNAMIC_INCLUDE: [{ template: '{include file=$a}' }],
  E_INCLUDE_NOT_FOUND: [{ template: '{include file="missing.tpl"}' }],
  E_FUNCTION_NOT_FOUND: [{ template: '{function name="missing" var=x}' }],
  E_PHP_DISABLED: [{ template: '{php}echo 1;{/php}' }],
  // The template, an include, and the code they compile to, each past render's limit.
  E_TEMPLATE_TOO_LARGE: [
    { template: big(DEFAULT_LIMITS.maxTemplateBytes) },
    { template: '{include file="huge.tpl"}', includes: { 'huge.tpl': big(DEFAULT_LIMITS.maxTemplateBytes) } },
    { template: '{$a}'.repeat(Math.floor(DEFAULT_LIMITS.maxTemplateBytes / 4) - 1) },
  ],
};

/** Every E_ code the compiler's sources name (TypeScript and the grammar), in the protocol's list. */
function compilerCodes(): string[] {
  const files: string[] = [path.join(ROOT, 'grammar/template.peggy')];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir)) {
      const p = path.join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) files.push(p);
    }
  };
  walk(path.join(ROOT, 'src/compiler'));
  const found = new Set<string>();
  for (const f of files) for (const m of readFileSync(f, 'utf8').matchAll(/\bE_[A-Z_]+\b/g)) found.add(m[0]);
  return [...found].filter((c) => Object.hasOwn(ERROR_CODE_MEANINGS, c)).sort();
}

describe('check reports what render refuses before a template runs', () => {
  const engine = testEngine({
    templates: (name) =>
      Object.values(CASES)
        .flat()
        .find((c) => c.includes?.[name] !== undefined)?.includes?.[name] ?? null,
  });
  let dir: string;
  const files: string[] = [];
  let report: { files: { file: string; diagnostics: { severity: string; code: string }[] }[] };

  beforeAll(() => {
    requireBuild();
    dir = mkdtempSync(path.join(tmpdir(), 'smartcage-parity-'));
    // The included templates in a folder of their own: check's --templates, not checked themselves.
    const includes = path.join(dir, 'includes');
    mkdirSync(includes);
    for (const [code, cases] of Object.entries(CASES)) {
      cases.forEach((c, i) => {
        const file = `${code}-${i}.tpl`;
        writeFileSync(path.join(dir, file), c.template);
        for (const [name, text] of Object.entries(c.includes ?? {})) writeFileSync(path.join(includes, name), text);
        files.push(file);
      });
    }
    const r = runBin(['check', '--format', 'json', '--templates', includes, ...files.map((f) => path.join(dir, f))]);
    report = JSON.parse(r.stdout) as typeof report;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has a case for every compile-time code, and only those', () => {
    const refusals = compilerCodes().filter((c) => !Object.hasOwn(NOT_REFUSALS, c));
    expect(Object.keys(CASES).sort()).toEqual(refusals);
  });

  for (const [code, cases] of Object.entries(CASES)) {
    cases.forEach((c, i) => {
      it(`${code} #${i + 1}: render refuses it, check reports it`, async () => {
        const err = await templateError(engine.render(c.template, { name: `${code}-${i}.tpl`, vars: { a: [1] } }));
        expect(err.code).toBe(code);
        const checked = report.files.find((f) => path.basename(f.file) === `${code}-${i}.tpl`)!;
        expect(checked.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toContain(code);
      });
    });
  }

  it('E_NOT_IMPLEMENTED is out of reach: every name of the catalogue is implemented', () => {
    expect(
      pluginEntries()
        .filter((e) => !e.implemented)
        .map((e) => e.name),
    ).toEqual([]);
  });
});

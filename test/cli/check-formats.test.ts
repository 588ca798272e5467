/**
 * `smartcage check` for machines (issue 24): --format text|json|sarif, folders, and results on
 * stdout with everything else on stderr. Runs the built bin/smartcage.js, as CI and editors do.
 * The SARIF log is validated against the SARIF 2.1.0 schema (the final rtm.5 text, as
 * @microsoft/jest-sarif ships it; it is draft-04, hence ajv-draft-04).
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Ajv04Module from 'ajv-draft-04';
import formatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, requireBuild, runBin } from '../support/bin.js';

beforeAll(requireBuild);

// Both are CommonJS with `exports.default`: the default import may be the module object or the export itself.
type Ajv04 = typeof Ajv04Module.default;
type FormatsPlugin = typeof formatsModule.default;
const Ajv: Ajv04 = (Ajv04Module as unknown as { default?: Ajv04 }).default ?? (Ajv04Module as unknown as Ajv04);
const addFormats: FormatsPlugin =
  (formatsModule as unknown as { default?: FormatsPlugin }).default ?? (formatsModule as unknown as FormatsPlugin);

function sarifValidator() {
  const schema = JSON.parse(
    readFileSync(join(ROOT, 'node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'),
  );
  // unicodeRegExp: false because the schema's pattern for a language tag is not valid with the u flag.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

function tempDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'smartcage-check-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** A line whose error comes after Japanese text and a character outside the BMP (two UTF-16 code units). */
const JAPANESE_LINE = '見出し「😀」: {$title|nosuch}';

const dir = tempDir({
  'ok.tpl': '{if $x}{$x}{/if}',
  'bad.tpl': 'a\n{foreach from=$l item=i}',
  'ja.tpl': `<h1>ようこそ</h1>\n${JAPANESE_LINE}\n`,
  'warn.tpl': '{$x foo}',
  'page.tpl': '{include file="parts/head.tpl"}',
  'parts/head.tpl': 'x\n{$x|nosuch2}',
  'notes.txt': '{broken',
  '.hidden/x.tpl': '{broken',
  'node_modules/y.tpl': '{broken',
});
const outside = tempDir({ 'secret.tpl': '{broken' });
symlinkSync(join(outside, 'secret.tpl'), join(dir, 'link-out.tpl'));
symlinkSync(outside, join(dir, 'linked-folder'));

interface JsonDiagnostic {
  severity: string;
  code: string;
  message: string;
  line: number;
  column: number;
  length?: number;
  in?: string;
}
interface JsonReport {
  version: number;
  engine: string;
  files: { file: string; error?: string; diagnostics: JsonDiagnostic[] }[];
  summary: { files: number; errors: number; warnings: number; unreadable: number };
}

describe('smartcage check --format', () => {
  it('text (the default): the house format on stdout, the summary on stderr', () => {
    const r = runBin(['check', 'ok.tpl', 'bad.tpl'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe(
      [
        'bad.tpl:2:1: error E_UNCLOSED_TAG: {foreach} is never closed with {/foreach}',
        '  1 | a',
        '> 2 | {foreach from=$l item=i}',
        '    | ^^^^^^^^^',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe('1 of 2 template(s) compiled without errors\n');
    expect(runBin(['check', '--format', 'text', 'ok.tpl', 'bad.tpl'], { cwd: dir }).stdout).toBe(r.stdout);
  });

  it('json: exactly one document on stdout, in the documented shape', () => {
    const r = runBin(['check', '--format', 'json', 'ok.tpl', 'bad.tpl', 'warn.tpl', 'page.tpl'], { cwd: dir });
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout) as JsonReport;
    expect(doc.version).toBe(1);
    expect(doc.engine).toMatch(/^\d+\.\d+\.\d+/);
    expect(doc.files.map((f) => f.file)).toEqual(['ok.tpl', 'bad.tpl', 'warn.tpl', 'page.tpl']);
    expect(doc.files[0]!.diagnostics).toEqual([]);
    expect(doc.files[1]!.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'E_UNCLOSED_TAG',
        message: '{foreach} is never closed with {/foreach}',
        line: 2,
        column: 1,
        length: expect.any(Number),
      },
    ]);
    expect(doc.files[2]!.diagnostics.map((d) => [d.severity, d.code])).toEqual([['warning', 'W_IGNORED_TEXT']]);
    // A problem in an included template says which one it is in.
    expect(doc.files[3]!.diagnostics).toMatchObject([
      { code: 'E_UNKNOWN_MODIFIER', line: 2, column: 4, in: join('parts', 'head.tpl') },
    ]);
    expect(doc.summary).toEqual({ files: 4, errors: 2, warnings: 1, unreadable: 0 });
    expect(r.stderr).toBe('2 of 4 template(s) compiled without errors\n');

    const quiet = JSON.parse(
      runBin(['check', '--format', 'json', '--quiet', 'warn.tpl'], { cwd: dir }).stdout,
    ) as JsonReport;
    expect(quiet.summary).toEqual({ files: 1, errors: 0, warnings: 0, unreadable: 0 });
  });

  it('json: an unreadable file is in the document and on stderr, exit 3', () => {
    const r = runBin(['check', '--format', 'json', 'ok.tpl', 'missing.tpl'], { cwd: dir });
    expect(r.status).toBe(3);
    const doc = JSON.parse(r.stdout) as JsonReport;
    expect(doc.files[1]).toEqual({ file: 'missing.tpl', error: missingMessage(dir), diagnostics: [] });
    expect(doc.summary.unreadable).toBe(1);
    expect(r.stderr).toContain(`smartcage check: ${missingMessage(dir)}\n`);
  });

  it('sarif: a SARIF 2.1.0 log that the schema accepts, a broken one it refuses', () => {
    const validate = sarifValidator();
    const r = runBin(['check', '--format', 'sarif', 'ok.tpl', 'bad.tpl', 'warn.tpl', 'ja.tpl', 'page.tpl'], {
      cwd: dir,
    });
    expect(r.status).toBe(1);
    const log = JSON.parse(r.stdout);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);

    const run = log.runs[0];
    expect(log.runs).toHaveLength(1);
    expect(run.tool.driver).toMatchObject({ name: 'smartcage', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(run.tool.driver.rules.map((rule: { id: string }) => rule.id)).toEqual([
      'E_UNCLOSED_TAG',
      'E_UNKNOWN_MODIFIER',
      'W_IGNORED_TEXT',
    ]);
    // The rules' descriptions are the comments of src/protocol/error-codes.ts.
    expect(run.tool.driver.rules[0].shortDescription.text).toBe(
      'a `{` is never closed with `}`, or a block tag is never closed',
    );
    expect(run.invocations).toEqual([{ executionSuccessful: true }]);
    expect(run.originalUriBaseIds['%SRCROOT%'].uri).toBe(pathToFileURL(dir).href + '/');
    expect(run.results.map((x: { ruleId: string; level: string }) => [x.ruleId, x.level])).toEqual([
      ['E_UNCLOSED_TAG', 'error'],
      ['W_IGNORED_TEXT', 'warning'],
      ['E_UNKNOWN_MODIFIER', 'error'],
      ['E_UNKNOWN_MODIFIER', 'error'],
    ]);
    expect(run.results[3].locations[0].physicalLocation.artifactLocation).toEqual({
      uri: 'parts/head.tpl',
      uriBaseId: '%SRCROOT%',
    });

    const broken = structuredClone(log);
    broken.runs[0].results[0].level = 'fatal';
    expect(validate(broken)).toBe(false);
  });

  it('sarif: columns count UTF-16 code units after Japanese text and an emoji', () => {
    const r = runBin(['check', '--format', 'sarif', 'ja.tpl'], { cwd: dir });
    const [result] = JSON.parse(r.stdout).runs[0].results;
    const start = JAPANESE_LINE.indexOf('|nosuch');
    expect(result.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'ja.tpl', uriBaseId: '%SRCROOT%' },
      region: { startLine: 2, startColumn: start + 1, endColumn: start + 1 + '|nosuch'.length },
    });
    // Not code points (the emoji is one) nor UTF-8 bytes: those would give other columns.
    expect([...JAPANESE_LINE.slice(0, start)].length + 1).not.toBe(start + 1);
  });

  it('sarif: a span over lines ends on its last line; a path is a URI (percent-encoded)', () => {
    const here = tempDir({ 'ページ 1.tpl': 'a {if $x\n  and $y\n' });
    const r = runBin(['check', '--format', 'sarif', '.'], { cwd: here });
    const log = JSON.parse(r.stdout);
    expect(sarifValidator()(log)).toBe(true);
    expect(log.runs[0].results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: '%E3%83%9A%E3%83%BC%E3%82%B8%201.tpl', uriBaseId: '%SRCROOT%' },
      region: { startLine: 1, startColumn: 7, endLine: 2, endColumn: '  and $y'.length + 1 },
    });
  });

  it('sarif: an unreadable file makes the execution unsuccessful, with a notification; exit 3', () => {
    const r = runBin(['check', '--format', 'sarif', 'ok.tpl', 'missing.tpl'], { cwd: dir });
    expect(r.status).toBe(3);
    const log = JSON.parse(r.stdout);
    expect(sarifValidator()(log)).toBe(true);
    expect(log.runs[0].invocations[0]).toEqual({
      executionSuccessful: false,
      toolExecutionNotifications: [
        {
          level: 'error',
          message: { text: missingMessage(dir) },
          locations: [{ physicalLocation: { artifactLocation: { uri: 'missing.tpl', uriBaseId: '%SRCROOT%' } } }],
        },
      ],
    });
    expect(r.stderr).toContain(`smartcage check: ${missingMessage(dir)}\n`);
  });

  it('a value other than text, json or sarif is wrong usage: exit 2, nothing on stdout', () => {
    const r = runBin(['check', '--format', 'sarf', 'ok.tpl'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--format is text, json or sarif, not "sarf" (did you mean sarif?)');
  });
});

describe('smartcage check DIR', () => {
  it('checks every *.tpl under it, sorted, skipping dot-folders, node_modules and links out', () => {
    const r = runBin(['check', '--format', 'json', '.'], { cwd: dir });
    const doc = JSON.parse(r.stdout) as JsonReport;
    expect(doc.files.map((f) => f.file)).toEqual([
      'bad.tpl',
      'ja.tpl',
      'ok.tpl',
      'page.tpl',
      join('parts', 'head.tpl'),
      'warn.tpl',
    ]);
    expect(r.stderr).toContain(`smartcage check: skipped link-out.tpl: a link to outside .\n`);
    expect(r.status).toBe(1);
  });

  it('resolves includes in the folder checked (or --templates)', () => {
    const r = runBin(['check', '--format', 'json', dir], { cwd: ROOT });
    const page = (JSON.parse(r.stdout) as JsonReport).files.find((f) => f.file === join(dir, 'page.tpl'))!;
    expect(page.diagnostics).toMatchObject([{ code: 'E_UNKNOWN_MODIFIER', in: join(dir, 'parts', 'head.tpl') }]);
    const elsewhere = runBin(['check', '--format', 'json', '--templates', outside, dir], { cwd: ROOT });
    const missing = (JSON.parse(elsewhere.stdout) as JsonReport).files.find((f) => f.file === join(dir, 'page.tpl'))!;
    expect(missing.diagnostics.map((d) => d.code)).toEqual(['E_INCLUDE_NOT_FOUND']);
  });

  // Root reads any folder: as root (CI) the command runs without the two capabilities that let it
  // (setpriv drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH), still root, so the checkout stays readable.
  it('a folder under it that cannot be listed is reported as unreadable: exit 3', () => {
    const tree = tempDir({ 'a.tpl': '{$x}', 'locked/b.tpl': '{$x}' });
    chmodSync(join(tree, 'locked'), 0o000);
    try {
      const args = ['check', '--format', 'json', '.'];
      const r =
        process.getuid?.() === 0
          ? (({ status, stdout, stderr }) => ({ status: status ?? -1, stdout, stderr }))(
              spawnSync('setpriv', ['--bounding-set=-dac_override,-dac_read_search', process.execPath, BIN, ...args], {
                cwd: tree,
                encoding: 'utf8',
              }),
            )
          : runBin(args, { cwd: tree });
      expect(r.stderr).toContain('smartcage check: cannot read the folder locked: EACCES\n');
      expect(r.status).toBe(3);
      expect((JSON.parse(r.stdout) as JsonReport).files).toEqual([
        { file: 'a.tpl', diagnostics: [] },
        { file: 'locked', error: 'cannot read the folder locked: EACCES', diagnostics: [] },
      ]);
    } finally {
      chmodSync(join(tree, 'locked'), 0o755);
    }
  });

  it('a folder with no template, or with too many, is wrong usage (exit 2)', () => {
    const empty = tempDir({ 'readme.txt': 'no templates here' });
    const r = runBin(['check', empty]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`no templates (*.tpl) in ${empty}`);
    const many = tempDir({});
    for (let i = 0; i <= 10_000; i++) writeFileSync(join(many, `t${i}.tpl`), '');
    const big = runBin(['check', many]);
    rmSync(many, { recursive: true });
    expect(big.status).toBe(2);
    expect(big.stderr).toContain('more than 10000 templates to check');
    expect(big.stdout).toBe('');
  });
});

describe('stdout carries results only', () => {
  it('smartcage with no command prints its help on stderr, exit 2; --help on stdout, exit 0', () => {
    const none = runBin([]);
    expect([none.status, none.stdout]).toEqual([2, '']);
    expect(none.stderr).toContain('Commands:');
    const help = runBin(['--help']);
    expect([help.status, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toContain('Commands:');
  });

  it("check's --help documents the formats, folders and exit codes", () => {
    const r = runBin(['check', '--help']);
    expect(r.status).toBe(0);
    for (const part of [
      '--format text',
      '--format json',
      '--format sarif',
      'DIR',
      'node_modules',
      'standard error',
      'Exit status: 0 no errors, 1',
      '2 wrong usage, 3',
    ]) {
      expect(r.stdout, part).toContain(part);
    }
  });
});

/** What check says of missing.tpl run in `dir`: which file, why in words, where paths start, the code. */
function missingMessage(dir: string): string {
  return `cannot read missing.tpl: there is no such file (check the name; paths are relative to ${realpathSync(dir)}) (ENOENT)`;
}

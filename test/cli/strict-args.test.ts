/**
 * The command line is strict (issue: the developer's first hour): every mistake is a usage error
 * (exit 2) with the usage, or a short file error (exit 3), never silently ignored. Runs the real
 * bin/smartcage.js.
 */
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, runBin } from '../support/bin.js';

beforeAll(requireBuild);

function tempDir(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'smartcage-args-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const dir = tempDir({
  't.tpl': 'Hello {$name}',
  'vars.json': '{"name": "world"}',
  'bad-vars.json': '{\n  "name": "world",\n  oops\n}',
  'bin.tpl': Buffer.from([0x7b, 0x24, 0x78, 0x7d, 0x00, 0x01]),
  'latin1.tpl': Buffer.from([0x63, 0x61, 0x66, 0xe9]),
});
mkdirSync(join(dir, 'folder.tpl'));
const t = join(dir, 't.tpl');

describe('strict arguments', () => {
  it('renders with the right flags', () => {
    const r = runBin([
      'render',
      t,
      '--vars',
      join(dir, 'vars.json'),
      '--timeout',
      '500',
      '--wall-timeout',
      '2000',
      '--timezone',
      'UTC',
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('Hello world');
    expect(r.status).toBe(0);
  });

  it('an unknown flag is exit 2 with the usage', () => {
    const r = runBin(['render', t, '--bogus']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown option --bogus');
    expect(r.stderr).toContain('Usage: smartcage render');
  });

  it('a typo gets a did-you-mean', () => {
    const r = runBin(['render', t, '--var', join(dir, 'vars.json')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown option --var (did you mean --vars?)');
  });

  it('bad values are exit 2 naming the option', () => {
    const timeout = runBin(['render', t, '--timeout', 'abc']);
    expect(timeout.status).toBe(2);
    expect(timeout.stderr).toContain('--timeout needs a positive whole number, not "abc"');
    const zone = runBin(['render', t, '--timezone', 'Mars/Base']);
    expect(zone.status).toBe(2);
    expect(zone.stderr).toContain('unknown time zone "Mars/Base"');
    const missing = runBin(['render', t, '--vars']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--vars needs a value');
    const extra = runBin(['check', t, '--quiet=yes']);
    expect(extra.status).toBe(2);
    expect(extra.stderr).toContain('--quiet takes no value');
  });

  it('a mistyped command gets a did-you-mean', () => {
    const r = runBin(['rendr', t]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown command "rendr" (did you mean "render"?)');
  });

  it('render - reads the template from standard input', () => {
    const r = runBin(['render', '-', '--vars', join(dir, 'vars.json')], { input: 'From stdin: {$name|upper}' });
    expect(r.stdout).toBe('From stdin: WORLD');
    expect(r.status).toBe(0);
  });

  it('invalid vars JSON is a file error naming the file, line and column', () => {
    const r = runBin(['render', t, '--vars', join(dir, 'bad-vars.json')]);
    expect(r.status).toBe(3);
    expect(r.stderr).toContain(`${join(dir, 'bad-vars.json')}:3:3: not valid JSON`);
  });

  it('a folder, a binary file or non-UTF-8 text as the template is a short file error', () => {
    for (const [file, what] of [
      ['folder.tpl', 'is a folder, not a file'],
      ['bin.tpl', 'is a binary file'],
      ['latin1.tpl', 'is not UTF-8 text'],
      ['missing.tpl', 'cannot read'],
    ]) {
      const r = runBin(['render', join(dir, file!)]);
      expect(r.status, file).toBe(3);
      expect(r.stderr, file).toContain(what);
      expect(r.stderr.split('\n').length, file).toBeLessThanOrEqual(2);
    }
  });

  it('the code frame of an error on a very long line stays narrow and points at the column', () => {
    const long = tempDir({ 'min.tpl': `${'x'.repeat(5000)}{if $a}${'y'.repeat(5000)}` });
    const r = runBin(['check', join(long, 'min.tpl')]);
    expect(r.status).toBe(1);
    const frame = r.stdout.split('\n').slice(1);
    for (const line of frame) expect(line.length, line.slice(0, 40)).toBeLessThanOrEqual(200);
    const code = frame.find((l) => l.startsWith('>'))!;
    const caret = frame.find((l) => l.includes('^'))!;
    expect(code.slice(caret.indexOf('^'), caret.indexOf('^') + 4)).toBe('{if ');
  });
});

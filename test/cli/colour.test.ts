/** Colour in the diagnostics (src/cli/colour.ts): on a terminal only, NO_COLOR and FORCE_COLOR respected. */
import { describe, expect, it } from 'vitest';
import { colourFor, paintDiagnostic } from '../../src/cli/colour.js';
import { requireBuild, runBin } from '../support/bin.js';
import { spawnSync } from 'node:child_process';
import { BIN } from '../support/bin.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

describe('colourFor', () => {
  it('a TTY gets colour; NO_COLOR turns it off, FORCE_COLOR on (FORCE_COLOR=0 off)', () => {
    expect(colourFor({ isTTY: true }, {})).toBe(true);
    expect(colourFor({ isTTY: false }, {})).toBe(false);
    expect(colourFor({}, {})).toBe(false);
    expect(colourFor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourFor({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(colourFor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourFor({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    expect(colourFor({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
  });
});

describe('paintDiagnostic', () => {
  const text = 'page.tpl:2:4: error E_UNKNOWN_MODIFIER: unknown modifier "x"\n  1 | a\n> 2 | {$a|x}\n    |    ^^';
  it('colours the place, the severity and code, the gutter and the carets; the words stay', () => {
    const painted = paintDiagnostic(text);
    expect(painted).toContain(
      '\u001b[1mpage.tpl:2:4\u001b[0m: \u001b[1;31merror E_UNKNOWN_MODIFIER\u001b[0m: unknown modifier "x"',
    );
    expect(painted).toContain('\u001b[1;31m    ^^\u001b[0m');
    expect(painted.replace(/\u001b\[[0-9;]*m/g, '')).toBe(text);
  });
  it('leaves other text alone', () =>
    expect(paintDiagnostic('smartcage render: cannot read x')).toBe('smartcage render: cannot read x'));
});

describe('the command', () => {
  it('a pipe gets plain text; FORCE_COLOR=1 gets colour', () => {
    requireBuild();
    const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-colour-'));
    writeFileSync(path.join(dir, 'bad.tpl'), '{$a|nosuch}');
    expect(runBin(['check', 'bad.tpl'], { cwd: dir }).stdout).toMatch(/^bad\.tpl:1:4: error E_UNKNOWN_MODIFIER/);
    const forced = spawnSync(process.execPath, [BIN, 'render', 'bad.tpl'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, FORCE_COLOR: '1', NO_COLOR: '' },
    });
    expect(forced.stderr).toContain('\u001b[1;31merror E_UNKNOWN_MODIFIER\u001b[0m');
  });
});

/**
 * What a user meets at the edges of the command (bin/smartcage.js): a reader that closes the
 * pipe early, `help COMMAND`, usage errors of subcommands.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, requireBuild, runBin } from '../support/bin.js';

let dir: string;
beforeAll(() => {
  requireBuild();
  dir = mkdtempSync(path.join(tmpdir(), 'smartcage-edges-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command, reads the first chunk of its output and closes the pipe, as `| head -1` does. */
function firstChunkThenClose(args: string[]): Promise<{ status: number | null; stderr: string; first: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let first = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', (d) => {
      first = String(d);
      child.stdout.destroy();
    });
    child.on('close', (status) => done({ status, stderr, first }));
  });
}

describe('a closed pipe', () => {
  it('`smartcage plugins | head` ends quietly', async () => {
    const r = await firstChunkThenClose(['plugins']);
    expect(r.first).toMatch(/^smartcage /);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('`smartcage render ... | head` ends quietly', async () => {
    const tpl = path.join(dir, 'long.tpl');
    writeFileSync(tpl, '{section name=i loop=200000}line {$smarty.section.i.index}\n{/section}');
    const r = await firstChunkThenClose(['render', tpl]);
    expect(r.first).toMatch(/^line 0\n/);
    expect(r.stderr).not.toMatch(/EPIPE|at /);
    expect(r.status).toBe(0);
  });
});

describe('help and usage', () => {
  it("`smartcage help render` is render's help; `help site ls` the subcommand's", () => {
    const r = runBin(['help', 'render']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(runBin(['render', '--help']).stdout);
    expect(r.stdout).toContain('Usage: smartcage render FILE|-');
    expect(runBin(['help', 'site', 'ls']).stdout).toContain('Usage: smartcage site ls DIR');
    expect(runBin(['help']).stdout).toContain('Commands:');
  });

  it("a subcommand's usage error shows that subcommand's usage, not the SUBCOMMAND block", () => {
    const r = runBin(['site', 'put', 'x']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Usage: smartcage site put DIR VIRTUAL_PATH LOCAL_FILE');
    expect(r.stderr).not.toContain('SUBCOMMAND');
    const b = runBin(['batch', 'history', '--run', 'x']);
    expect(b.status).toBe(2);
    expect(b.stderr).toContain('Usage: smartcage batch history --site DIR');
    // No subcommand at all: the list of subcommands is the usage to show.
    expect(runBin(['site']).stderr).toContain('Subcommands:');
  });
});

describe("the README's first command, run again", () => {
  it('site init on the site it made keeps it (exit 0), and the render after it runs; another site is refused', () => {
    const site = path.join(dir, 'demo');
    expect(runBin(['site', 'init', site]).status).toBe(0);
    const again = runBin(['site', 'init', site]);
    expect(again.status).toBe(0);
    expect(again.stderr).toBe(
      `${site} already holds this site (site key demo, data in data/site.sqlite); kept as it is, nothing was changed\n`,
    );
    const page = runBin(['render', path.join(ROOT, 'examples/news-page.tpl'), '--site', site]);
    expect(page.status).toBe(0);
    expect(page.stdout).toContain('<p class="views">閲覧数: 107</p>');
    const other = runBin(['site', 'init', site, '--site-key', 'other']);
    expect(other.status).toBe(3);
    expect(other.stderr).toMatch(
      /already holds a site \(site\.json\); nothing was changed \(another site: choose another folder, or remove this one to start over\)\n$/,
    );
  });
});

describe('messages', () => {
  it('a missing file says which, why in words, and where paths start', () => {
    const r = runBin(['render', 'nope.tpl'], { cwd: dir });
    expect(r.status).toBe(3);
    expect(r.stderr).toBe(
      `smartcage render: cannot read nope.tpl: there is no such file (check the name; paths are relative to ${realpathSync(dir)}) (ENOENT)\n`,
    );
  });

  it('an error in an included template: once, at a path from the current folder; --site warnings keep line and column', () => {
    const site = path.join(dir, 'msgsite');
    expect(runBin(['site', 'init', site]).status).toBe(0);
    writeFileSync(path.join(site, 'templates', 'bad.tpl'), 'line1\n{$y|nosuchmod}\n');
    writeFileSync(path.join(dir, 'page.tpl'), 'x\n{include file="bad.tpl"}');
    const r = runBin(['render', 'page.tpl', '--site', 'msgsite'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stderr.match(/E_UNKNOWN_MODIFIER/g)).toHaveLength(1);
    expect(r.stderr).toMatch(/^msgsite\/templates\/bad\.tpl:2:4: error E_UNKNOWN_MODIFIER/);
    writeFileSync(path.join(dir, 'warn.tpl'), 'a\n{"abc"|substr:"x"}');
    const w = runBin(['render', 'warn.tpl', '--site', 'msgsite'], { cwd: dir });
    expect(w.status).toBe(0);
    expect(w.stderr).toMatch(/^warn\.tpl:2:1: warning W_RUNTIME: substr\(\)/);
  });
});

import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';

function tempDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'smartcage-cli-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('smartcage CLI', () => {
  it('renders the example with its variables and includes', () => {
    const r = runCli(['render', 'examples/newsletter.tpl', '--vars', 'examples/newsletter.json']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('<h1>Example news</h1>');
    expect(r.stdout).toContain('<li class="even">2. Smarty 2, byte for byte</li>');
    expect(r.stdout).toContain('3 articles, featured: A sandbox for templates');
  });

  it('check prints diagnostics in the house format and exits 1 on errors', () => {
    const dir = tempDir({ 'ok.tpl': '{$x}', 'bad.tpl': 'a\n{foreach from=$l item=i}' });
    const r = runCli(['check', join(dir, 'ok.tpl'), join(dir, 'bad.tpl')]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      `${join(dir, 'bad.tpl')}:2:1: error E_UNCLOSED_TAG: {foreach} is never closed with {/foreach}`,
    );
    expect(r.stderr).toContain('1 of 2 template(s) compiled without errors');
  });

  it('check exits 0 when all templates compile', () => {
    const dir = tempDir({ 'ok.tpl': '{if $x}{$x}{/if}' });
    expect(runCli(['check', join(dir, 'ok.tpl')]).status).toBe(0);
  });

  it('compile prints the generated JavaScript and the manifest', () => {
    const dir = tempDir({ 't.tpl': '{set_memory memory_limit="512M"}{$a.b}' });
    const js = runCli(['compile', join(dir, 't.tpl')]);
    expect(js.status).toBe(0);
    expect(js.stdout).toContain('o += str(key(s["a"], "b"));');
    const manifest = JSON.parse(runCli(['compile', join(dir, 't.tpl'), '--manifest']).stdout);
    expect(manifest.memoryMB).toBe(512);
  });

  it('every command has --help, and wrong usage exits 2', () => {
    for (const cmd of ['render', 'check', 'compile']) {
      const r = runCli([cmd, '--help']);
      expect(r.status, cmd).toBe(0);
      expect(r.stdout, cmd).toContain(`smartcage ${cmd}`);
    }
    expect(runCli(['--help']).stdout).toContain('Commands:');
    expect(runCli(['nosuch']).status).toBe(2);
    expect(runCli(['render']).status).toBe(2);
  });

  it('a missing file exits 3, a runtime error 1', () => {
    expect(runCli(['render', '/nonexistent/x.tpl']).status).toBe(3);
    const dir = tempDir({ 'div.tpl': '{$a/0}' });
    const r = runCli(['render', join(dir, 'div.tpl')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('E_DIVISION_BY_ZERO');
  });

  it('deep nesting is a formatted error at its line from check, compile and render: exit 1, no stack (HH-07)', () => {
    const dir = tempDir({
      'chain.tpl': `a\n{assign var=x value=$a${'+$a'.repeat(10_000)}}`,
      'parens.tpl': `a\nb\n{if ${'('.repeat(20_000)}1${')'.repeat(20_000)}}x{/if}`,
      'math.tpl': `a\n{math equation="${'('.repeat(20_000)}x${')'.repeat(20_000)}" x=1}`,
    });
    const p = (f: string) => join(dir, f);
    const runs: [string[], string[]][] = [
      [
        ['check', p('chain.tpl'), p('parens.tpl')],
        [`${p('chain.tpl')}:2:1:`, `${p('parens.tpl')}:3:206:`],
      ],
      [['compile', p('chain.tpl')], [`${p('chain.tpl')}:2:1:`]],
      [['render', p('parens.tpl')], [`${p('parens.tpl')}:3:206:`]],
      [['render', p('math.tpl')], [`${p('math.tpl')}:2:1:`]],
    ];
    for (const [args, places] of runs) {
      const r = runCli(args);
      const out = r.stdout + r.stderr;
      expect(r.status, args[0]).toBe(1);
      for (const place of places) expect(out, args[0]).toContain(`${place} error E_NESTING_TOO_DEEP`);
      expect(out, args[0]).not.toMatch(/RangeError|\n\s+at /);
    }
  });

  it('includes cannot escape the template folder', () => {
    const dir = tempDir({ 't.tpl': '{include file="../../etc/passwd"}' });
    const r = runCli(['render', join(dir, 't.tpl')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('E_INCLUDE_NOT_FOUND');
  });
});

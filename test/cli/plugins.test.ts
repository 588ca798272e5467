/** `smartcage plugins` through the built command, and docs/reference.md generated from the same declarations. */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { ALL_PLUGINS } from '../../src/plugins/registry.js';
import { FUNCTION_NAMES } from '../../src/plugins/catalog.js';
import type { PluginList } from '../../src/cli/commands/plugins.js';
import { ROOT, requireBuild, runBin } from '../support/bin.js';

requireBuild();

describe('smartcage plugins', () => {
  it('lists the families, each plugin with its signature, where it runs and whether this host has it', () => {
    const r = runBin(['plugins']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^host-files$/m);
    expect(r.stdout).toContain(
      '  {read_file [name=string] [path=string] [row=varname] [type=txt|csv|jsonl] [ignore_permission=bool]}...{/read_file}  [block, host: files, not on this host]',
    );
    expect(r.stdout).toContain(
      '  |truncate[:length=80][:etc="..."][:break_words=false][:middle=false]  [smarty, isolate]',
    );
    expect(r.stdout).toMatch(/\{sleep [^\n]*\[function, host: clock\]\n/);
    expect(r.stdout).toContain('Part of the language but not implemented yet (E_NOT_IMPLEMENTED):');
    expect(r.stdout).toContain('{backup}');
  });

  it('--json gives every declaration as data', () => {
    const r = runBin(['plugins', '--json']);
    expect(r.status).toBe(0);
    const list = JSON.parse(r.stdout) as PluginList;
    const find = (kind: string, name: string) => list.plugins.find((p) => p.kind === kind && p.name === name);

    expect(find('tag', 'read_file')).toMatchObject({
      form: 'block',
      family: 'host-files',
      runs: 'host',
      capability: 'files',
      provided: false,
      implemented: true,
    });
    expect(find('tag', 'read_file')!.arguments.find((a) => a.name === 'type')).toEqual({
      name: 'type',
      type: 'string',
      required: false,
      enum: ['txt', 'csv', 'jsonl'],
      doc: 'txt (default), csv or jsonl.',
    });
    expect(find('modifier', 'truncate')).toMatchObject({
      family: 'string',
      origin: 'smarty',
      runs: 'isolate',
      capability: null,
      provided: true,
    });
    expect(find('modifier', 'truncate')!.arguments.map((a) => [a.name, a.type, a.default])).toEqual([
      ['length', 'int', 80],
      ['etc', 'string', '...'],
      ['break_words', 'bool', false],
      ['middle', 'bool', false],
    ]);
    expect(find('tag', 'sleep')).toMatchObject({ runs: 'host', capability: 'clock', provided: true });
    expect(find('tag', 'site_sync')).toMatchObject({
      implemented: true,
      provided: false,
      family: 'host-sync',
      runs: 'host',
      capability: 'siteSync',
    });
    expect(list.plugins.filter((p) => !p.implemented)).toEqual([]);
    expect(list.hostCapabilities).toEqual(['clock', 'request']);
    expect(list.builtInTags).toContain('foreach');

    // Every declaration once, and every catalogue tag name either implemented or listed as not.
    const implemented = list.plugins.filter((p) => p.implemented);
    expect(implemented.map((p) => `${p.kind} ${p.name}`).sort()).toEqual(
      ALL_PLUGINS.map((p) => `${p.kind === 'modifier' ? 'modifier' : 'tag'} ${p.name}`).sort(),
    );
    expect(FUNCTION_NAMES.filter((n) => !find('tag', n))).toEqual([]);
  });

  it('--help describes it; a stray option or file is wrong usage', () => {
    const help = runBin(['plugins', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: smartcage plugins [NAME...] [--json]');
    expect(runBin(['--help']).stdout).toMatch(/^ {2}plugins {4}/m);
    const typo = runBin(['plugins', '--jsn']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('unknown option --jsn (did you mean --json?)');
    expect(runBin(['plugins', 'x.tpl']).status).toBe(2);
  });

  it('NAME shows one plugin in full; an unknown name is wrong usage with a guess', () => {
    const one = runBin(['plugins', 'truncate']);
    expect(one.status).toBe(0);
    expect(one.stdout).toMatch(/^\|truncate\[:length=80\]/);
    expect(one.stdout).toContain('    etc (string, default "...")');
    const tag = runBin(['plugins', '{sendmail}', '--json']);
    const entries = JSON.parse(tag.stdout) as { name: string; kind: string; requiresOneOf?: string[] }[];
    expect(entries.map((e) => [e.name, e.kind])).toEqual([['sendmail', 'tag']]);
    expect(entries[0]!.requiresOneOf).toContain('to');
    const typo = runBin(['plugins', 'trunkate']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('no tag or modifier "trunkate" (did you mean truncate?)');
  });

  it('docs/reference.md is what the declarations generate (npm run reference:check)', () => {
    const r = spawnSync(process.execPath, ['scripts/build-reference.mjs', '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('docs/reference.md is fresh');
  });
});

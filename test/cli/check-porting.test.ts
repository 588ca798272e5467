/**
 * Porting help in `smartcage check`: Smarty 3 constructs get a hint that names what the dialect
 * offers instead (src/compiler/porting-hints.ts), and --compat lists the places a template relies
 * on a departure of the dialect from stock Smarty 2 (src/compiler/compat.ts). Runs the built
 * bin/smartcage.js on test/fixtures/porting/.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, requireBuild, runBin } from '../support/bin.js';

beforeAll(requireBuild);

const FIXTURES = join(ROOT, 'test/fixtures/porting');

interface JsonReport {
  files: {
    file: string;
    diagnostics: { severity: string; code: string; message: string; line: number; column: number }[];
  }[];
}

function check(file: string, ...flags: string[]): JsonReport['files'][number]['diagnostics'] {
  const r = runBin(['check', join(FIXTURES, file), '--format', 'json', ...flags]);
  return (JSON.parse(r.stdout) as JsonReport).files[0]!.diagnostics;
}

describe('check on a Smarty 3 template', () => {
  const diagnostics = check('smarty3-page.tpl');
  const at = (line: number) =>
    diagnostics
      .filter((d) => d.line === line)
      .map((d) => d.message)
      .join('\n');

  it('gives a hint, not a bare unknown or unrecognized tag, for each Smarty 3 construct', () => {
    expect(at(1)).toMatch(
      /unknown tag \{extends\}\. \{extends\} is Smarty 3 template inheritance.*\{include file=\.\.\.\}/,
    );
    expect(at(2)).toMatch(/\{block\} is Smarty 3 template inheritance/);
    expect(at(3)).toContain('write {foreach from=$items item=item}');
    expect(at(6)).toContain('write {foreach from=$map key=k item=v}');
    expect(at(4)).toContain('$smarty.foreach.f.iteration');
    expect(at(4)).toContain('nocache is Smarty 3 caching');
    expect(at(7)).toContain('write {assign var=total value=...}');
    expect(at(8)).toContain('write {assign var=count value=$count+1}');
    expect(at(9)).toMatch(/\{for\} is Smarty 3: loop with \{section/);
    expect(at(10)).toMatch(/\{while\} is Smarty 3/);
    expect(at(11)).toContain('calls a stored custom function');
    expect(at(12)).toContain('{call} is Smarty 3');
    expect(at(13)).toContain('|smarty:nodefaults');
    expect(at(14)).toContain('in_array($value, $list)');
    expect(at(15)).toContain('templates cannot call methods');
    expect(at(16)).toContain('nocache is Smarty 3');
    expect(at(17)).toContain('$smarty.block is Smarty 3');
    expect(at(18)).toContain('inline is a Smarty 3 {include} option');
    expect(at(20)).toContain('defaultModifiers');
    expect(at(21)).toContain('the ternary operator is Smarty 3');
    expect(at(22)).toContain('$smarty.foreach.f.first');
    expect(at(23)).toContain('{block} is Smarty 3');
    expect(at(24)).toContain('Smarty 2 reads {else if ...} as a plain {else}; write {elseif ...}');
  });

  it('every error of the template carries a hint but the one at a tag Smarty 2 also has', () => {
    const bare = diagnostics.filter((d) => !/Smarty 3|cannot call methods/.test(d.message));
    expect(bare.map((d) => `${d.line}:${d.code}`)).toEqual(['11:E_MISSING_ATTR']);
  });

  it('lists no dialect departures without --compat', () => {
    expect(diagnostics.some((d) => d.code === 'W_DIALECT')).toBe(false);
  });
});

describe('check --compat', () => {
  it('lists every place the template relies on a departure from stock Smarty 2, as warnings', () => {
    const r = runBin(['check', join(FIXTURES, 'dialect-departures.tpl'), '--compat', '--format', 'json']);
    expect(r.status).toBe(0);
    const found = (JSON.parse(r.stdout) as JsonReport).files[0]!.diagnostics;
    expect(found.every((d) => d.severity === 'warning' && d.code === 'W_DIALECT')).toBe(true);
    expect(found.map((d) => `${d.line}:${d.column} ${d.message.split(/[:;(]/)[0]}`)).toEqual([
      '1:13 a dotted {assign} name ',
      '2:8 a quoted key in brackets ',
      '2:18 json_decode gives arrays by default ',
      '2:35 implode takes its two arguments in either order ',
      '3:5 TRUE in {if}',
      '3:13 count of anything that is not an array is 0 ',
      "3:28 $smarty.const reads the dialect's constants ",
      '4:21 a } inside a quoted value',
      "4:30 date_format is the platform's",
      "4:50 escape with @ gives '' for a value that is not a scalar ",
      "5:25 {break} is the dialect's, not stock Smarty 2's",
    ]);
  });

  it('lists nothing for a template that is stock Smarty 2 throughout', () => {
    const r = runBin(['check', '-', '--compat'], {
      input: '{foreach from=$l item=i name=f}{$i|escape|upper}{/foreach}{if $a eq 1}x{/if}\n',
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
  });
});

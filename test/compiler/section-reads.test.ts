/**
 * What the generated code reads a section's state from (docs/decisions.md D219, D279): inside the
 * section's own body its state variable, elsewhere the render state's lookup by name. The values
 * are checked against Smarty 2.6.33 in test/conformance/smarty2/ (section-state, fast-paths).
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';

const code = (tpl: string) => compile(tpl, { name: 't' }).code;

describe('section properties in generated code', () => {
  it('inside the body: every property from the state variable, the index without a call', () => {
    const c = code(
      '{section name=s loop=$a}{$smarty.section.s.first}{$smarty.section.s.rownum}{$a[s]}{$a[s.index_prev]}{/section}',
    );
    expect(c).toMatch(/\$\.sectionPropOf\(sec\d+, "first"\)/);
    expect(c).toMatch(/\$\.sectionPropOf\(sec\d+, "rownum"\)/);
    expect(c).toMatch(/key\(s\["a"\], \$\.sectionPropOf\(sec\d+, "index_prev"\)\)/);
    expect(c).toMatch(/key\(s\["a"\], sec\d+\.index\)/);
    expect(c).not.toMatch(/\$\.section(Prop|Index)\(/);
  });

  it('an outer section in an inner one reads the outer variable; after the loop and in sectionelse, by name', () => {
    const c = code(
      '{section name=r loop=$a}{section name=c loop=$b}{$smarty.section.r.last}{/section}{/section}' +
        '{$smarty.section.r.last}{section name=e loop=$z}{sectionelse}{$smarty.section.e.first}{/section}',
    );
    const outer = /const (sec\d+) = \$\.sectionStart\("r"/.exec(c)![1];
    expect(c).toContain(`$.sectionPropOf(${outer}, "last")`);
    expect(c).toContain('$.sectionProp("r", "last")');
    expect(c).toContain('$.sectionProp("e", "first")');
  });
});

/** How many times `text` occurs in `s`. */
const count = (s: string, text: string) => s.split(text).length - 1;

describe('a read repeated in a run of statements that cannot write is read once (D278)', () => {
  it("the section page's cell: one chain, held in a constant the tests and the print use", () => {
    const c = code(
      '{section name=r loop=$rows}{section name=c loop=$rows[r].cells}' +
        '{if $rows[r].cells[c] > 80}H{elseif $rows[r].cells[c] < 20}C{/if}' +
        '{if $rows[r].cells[c] == 0}-{else}{$rows[r].cells[c]}{/if}{/section}{/section}',
    );
    const held = /const (r\d+) = (key\(key\(key\(s\["rows"\], sec\d+\.index\), "cells"\), sec\d+\.index\));/.exec(c);
    expect(held).not.toBeNull();
    expect(count(c, held![2])).toBe(1);
    expect(count(c, `(${held![1]}`)).toBe(4); // gt, lt, eq, str
  });

  it('a read on both sides of a tag that may write is read on each side', () => {
    for (const tag of [
      '{assign var=a value=1}',
      '{counter assign=a}',
      '{capture name=x}y{/capture}',
      '{include file="i.tpl"}',
      '{foo}',
    ]) {
      const c = compile(`{$a.b}{if $a.b}x{/if}${tag}{$a.b}{$a.b}`, { name: 't', templates: () => 'i' }).code;
      expect(count(c, 'const r'), tag).toBe(2);
      expect(count(c, 'key(s["a"], "b")'), tag).toBe(2);
    }
  });

  it('a modifier anywhere in the run ends it: `|@sort` writes its variable', () => {
    const c = code('{if $l[0] == 3}{$l|@sort}{$l[0]}{/if}{$l[0]}');
    expect(c).not.toMatch(/const r\d+ =/);
    expect(count(c, 'key(s["l"], 0)')).toBe(3);
  });

  it('reads in nested {if} bodies and in keys are held once; $smarty and bare variables are not', () => {
    const c = code('{if $a.x}{if $a.y[$i.n] == 3}{$a.y[$i.n]}{$i.n}{/if}{$smarty.now}{$smarty.now}{$b}{$b}{/if}');
    expect(count(c, 'const r')).toBe(2);
    expect(count(c, 'key(s["i"], "n")')).toBe(1);
    expect(count(c, '$.now')).toBe(2);
    expect(count(c, 's["b"]')).toBe(2);
  });

  it('a run inside a loop body holds its reads per pass, inside the loop', () => {
    const c = code('{foreach from=$l item=i}{$m[$i].x}{$m[$i].x}{/foreach}');
    // After the item is stored: the read is made again in each pass.
    expect(c).toMatch(/s\["i"\] = it\d+\.vals\[i\d+\];\n\s+const r\d+ = key\(key\(s\["m"\], s\["i"\]\), "x"\);/);
  });
});

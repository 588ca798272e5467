/**
 * What the generated code reads a section's state from (docs/decisions.md D219, D272): inside the
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
    expect(c).toMatch(/\$\.sectionPropOf\(sec\d+, "s", "first"\)/);
    expect(c).toMatch(/\$\.sectionPropOf\(sec\d+, "s", "rownum"\)/);
    expect(c).toMatch(/key\(s\["a"\], \$\.sectionPropOf\(sec\d+, "s", "index_prev"\)\)/);
    expect(c).toMatch(/key\(s\["a"\], sec\d+\.index\)/);
    expect(c).not.toMatch(/\$\.section(Prop|Index)\(/);
  });

  it('an outer section in an inner one reads the outer variable; after the loop and in sectionelse, by name', () => {
    const c = code(
      '{section name=r loop=$a}{section name=c loop=$b}{$smarty.section.r.last}{/section}{/section}' +
        '{$smarty.section.r.last}{section name=e loop=$z}{sectionelse}{$smarty.section.e.first}{/section}',
    );
    const outer = /const (sec\d+) = \$\.sectionStart\("r"/.exec(c)![1];
    expect(c).toContain(`$.sectionPropOf(${outer}, "r", "last")`);
    expect(c).toContain('$.sectionProp("r", "last")');
    expect(c).toContain('$.sectionProp("e", "first")');
  });
});

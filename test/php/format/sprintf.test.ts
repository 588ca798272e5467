import { describe, expect, it } from 'vitest';
import { phpSprintf } from '../../../src/php/format/sprintf.js';
import { PhpArray, PhpFloat, type Value } from '../../../src/value/value.js';
import { Prng } from '../../support/prng.js';
import { randomValue } from './random-inputs.js';
import { type Case, compareWithPhp, expectAgreement } from '../../support/oracle-args.js';

const sprintfCase = (format: string, ...args: Value[]): Case => ({
  fn: 'sprintf',
  args: [format, ...args],
  ours: () => phpSprintf(format, args),
});

describe('sprintf against php', () => {
  it('hand-picked edge cases', () => {
    const f = (n: number) => new PhpFloat(n);
    const cases: Case[] = [
      sprintfCase('%05.2f|%5.1f|%-7.3f|', 3.14159, -2.25, 1.5),
      sprintfCase('%.0f %.0f %.1f %.2f %.0f', 2.5, 3.5, 0.25, 1.005, -0.5),
      sprintfCase("%'*8s|%-6s|%+d|%+d|%05d", 'ab', 'cd', 5, -5, -42),
      sprintfCase('%d|%d|%d|%s|%s', '12abc', 3.99, '-7.9', 0.30000000000000004, true),
      sprintfCase('[%6.2f] [%-8s] [%08.3f] [%.3s]', 3.14159, '日本', -3.14159, '日本語'),
      sprintfCase('[%8s][%5s][%.3s][%.2s]', '日本', '日本', '日本', '日本'),
      sprintfCase('%e|%E|%.0e|%.3e|%e', 1234.5, 0.000123, 1234.5, 9.9995, f(0)),
      sprintfCase('%g|%G|%g|%g|%.1g|%g', 0.00001234, f(1e20), 100000, 1000000, 2.5, f(-0)),
      sprintfCase('%u|%x|%X|%o|%b|%c', -1, -1, 255, 8, -3, 65),
      sprintfCase('%c%c', 256 + 66, -1),
      sprintfCase('%-05d|%-05s|%05s|%+05d|% 5d|%+.1e', 12, 'ab', 'ab', 3, 5, 1234.5),
      sprintfCase('%1$s %2$s %1$s', 'a', 'b'),
      sprintfCase('%2$s %s', 'a', 'b'),
      sprintfCase('%*d|%-*d|%.*f', 5, 3, 5, 3, 2, 3.14159),
      sprintfCase('%5%|%%|%ld', 7),
      sprintfCase('%s %s', 'a'),
      sprintfCase('%0$s', 'a'),
      sprintfCase('%y', 1),
      sprintfCase('abc %', 1),
      sprintfCase("%'", 1),
      sprintfCase('%s|%s|%s', f(1e15), f(-0), 1e-5),
      sprintfCase('%d|%d|%u|%d', '9999999999999999999', f(1e19), '-1e100', f(2 ** 63)),
      sprintfCase(
        '%f|%F|%e|%010f|%+f|%+05f|%-6fx',
        f(NaN),
        f(Infinity),
        f(NaN),
        f(Infinity),
        f(Infinity),
        f(NaN),
        f(Infinity),
      ),
      sprintfCase('%.20f|%.53f|%f', 0.1, 1 / 3, f(1e300)),
      sprintfCase('%.60f', 1.5),
      sprintfCase('%s|%d|%.1f', PhpArray.fromList([]), PhpArray.fromList([1]), PhpArray.fromList([1])),
      // A format is read once per argument count (its plan): a `*` is checked even when the
      // conversion's own argument is missing, and a missing argument leaves its character unread.
      sprintfCase('%*d', 'x'),
      sprintfCase('%.*f', 'x'),
      sprintfCase('%*d', 5),
      sprintfCase('%d %9$%d', 1),
      sprintfCase('%d %9$%d', 1, 2),
      sprintfCase('%s %s %y', 'a'),
      sprintfCase('%s %y %s', 'a'),
      sprintfCase('%.-1f %s', 1.5),
      sprintfCase('%05d|%05d|%-5d|%5s|%-5s|%.1f|%.1f', 42, -42, 7, 'ab', 'ab', 0.25, 0.35),
    ];
    const bad = compareWithPhp(cases, 'php/format/sprintf');
    expectAgreement(bad);
  });

  it('600+ random formats agree with php (seeded)', () => {
    const r = new Prng(20240601);
    const convs = 'bcdeEfFgGosuxX';
    const cases: Case[] = [];
    for (let n = 0; n < 700; n++) {
      const args: Value[] = [];
      let format = '';
      const specs = r.int(1, 3);
      for (let k = 0; k < specs; k++) {
        if (r.chance(0.5)) format += r.pick(['', 'x', '[', '] ', '日', '%%', '-']);
        let spec = '%';
        const flags = r.int(0, 2);
        for (let j = 0; j < flags; j++) spec += r.pick(['-', '+', ' ', '0', "'*", "'x", "'0"]);
        if (r.chance(0.6)) spec += String(r.int(0, 25));
        if (r.chance(0.5)) spec += '.' + (r.chance(0.9) ? String(r.int(0, 20)) : '');
        spec += r.pick([...convs, 's', 's', 'f', 'f', 'd', 'd', 'e', 'g']);
        format += spec;
        args.push(randomValue(r));
      }
      cases.push(sprintfCase(format, ...args));
    }
    const bad = compareWithPhp(cases);
    expectAgreement(bad);
    expect(cases.length).toBeGreaterThanOrEqual(600);
  });
});

/**
 * bcrypt against PHP both ways: our crypt() equals PHP's for every variant, PHP's
 * password_verify accepts our password_hash output (live PHP: seeded inputs, random salts), and
 * the edge and error cases match PHP's answers committed in test/fixtures/php/plugins/util/.
 */
import { describe, expect, it } from 'vitest';
import { callPhp, toTagged, type OracleCall, type OracleResult } from '../../support/php-oracle.js';
import { phpGolden } from '../../support/php-golden.js';
import { bcrypt, bcryptBase64, parseSetting } from '../../../src/php/hash/bcrypt.js';
import { byteLength, fromBytes } from '../../../src/value/bytes.js';
import { PhpTypeError } from '../../../src/value/convert.js';
import { LimitError } from '../../../src/value/limits.js';
import { PhpArray, type Value } from '../../../src/value/value.js';
import passwordHash from '../../../src/plugins/util/password_hash.js';
import passwordVerify from '../../../src/plugins/util/password_verify.js';
import { testModifierContext } from '../../support/plugin-context.js';
import { piWords } from './pi-words.js';
import { P_INIT, S_INIT } from '../../../src/php/hash/blowfish-tables.js';
import { Gen, phpLiteral } from './support.js';

const ctx = testModifierContext();
/** Live PHP, asked when a test first needs it (so the fixture-backed tests run without php). */
const lazyPhp = (calls: () => OracleCall[]) => {
  let results: OracleResult[] | undefined;
  return () => (results ??= callPhp(calls()));
};
const cost = (n: number) => PhpArray.fromEntries([['cost', n]]);

function passwords(): string[] {
  const g = new Gen(17);
  const out = [
    '',
    'a',
    'password',
    'パスワード',
    'x'.repeat(71),
    'x'.repeat(72),
    'x'.repeat(73),
    'あ'.repeat(30),
    'a\0b',
  ];
  for (let i = 0; i < 30; i++) {
    out.push(
      i % 3 === 0
        ? fromBytes(g.bytes(g.int(1, 80)).map((b) => b || 1))
        : g.text(g.int(1, 40), 'abcXYZ019!$/.日本語😀ü'),
    );
  }
  return out;
}

describe('blowfish tables', () => {
  it('are the hex digits of pi', () => {
    expect([...P_INIT, ...S_INIT]).toEqual(piWords(18 + 1024));
  });
});

describe('bcrypt crypt() against php', () => {
  const g = new Gen(23);
  const cases = passwords().map((pw, i) => {
    const variant = 'yabx'[i % 4];
    const salt = bcryptBase64(g.bytes(16));
    return { pw, setting: `$2${variant}$0${4 + (i % 2)}$${salt}` };
  });
  const php = lazyPhp(() =>
    cases.map((c) => ({ fn: '__eval', args: [`return crypt(${phpLiteral(c.pw)}, ${phpLiteral(c.setting)});`] })),
  );

  it.each(cases.map((c, i) => [i, c.setting.slice(0, 7), JSON.stringify(c.pw).slice(0, 40)] as const))(
    '#%i %s %s',
    (i) => {
      expect(toTagged(bcrypt(cases[i].pw, parseSetting(cases[i].setting)!))).toEqual(php()[i].value);
    },
  );
});

describe('password_hash / password_verify', () => {
  const pws = passwords().filter((p) => !p.includes('\0'));
  const ours = pws.map((pw) => passwordHash.run(pw, ['2y', cost(4)], ctx) as string);
  const phpHashes = lazyPhp(() =>
    pws.map((pw) => ({
      fn: '__eval',
      args: [`return password_hash(${phpLiteral(pw)}, PASSWORD_DEFAULT, ['cost' => 4]);`],
    })),
  );
  const verdicts = lazyPhp(() =>
    pws.flatMap((pw, i) => [
      { fn: '__eval', args: [`return password_verify(${phpLiteral(pw)}, ${phpLiteral(ours[i])});`] },
      { fn: '__eval', args: [`return password_verify(${phpLiteral(pw + '!')}, ${phpLiteral(ours[i])});`] },
    ]),
  );

  it('php accepts our hashes and rejects wrong passwords', () => {
    for (let i = 0; i < pws.length; i++) {
      expect(ours[i]).toMatch(/^\$2y\$04\$[./A-Za-z0-9]{53}$/);
      expect(verdicts()[2 * i].value).toBe(true);
      // Past 72 bytes a suffix does not count: PHP says the same for both.
      expect(verdicts()[2 * i + 1].value).toBe(passwordVerify.run(pws[i] + '!', [ours[i]], ctx));
    }
  });

  it('we accept php hashes and reject wrong passwords', () => {
    pws.forEach((pw, i) => {
      const h = fromBytes(Buffer.from((phpHashes()[i].value as { str: string }).str, 'base64'));
      expect(passwordVerify.run(pw, [h], ctx)).toBe(true);
      expect(passwordVerify.run(pw + 'x', [h], ctx)).toBe(byteLength(pw) >= 72);
    });
  });

  it('uses fresh salts from the render generator', () => {
    const a = passwordHash.run('same', ['2y', cost(4)], ctx);
    const b = passwordHash.run('same', ['2y', cost(4)], ctx);
    expect(a).not.toBe(b);
  });

  const edge: { pw: string; hash: string }[] = [
    { pw: 'a\0b', hash: bcrypt('a', parseSetting('$2y$04$abcdefghijklmnopqrstuu')!) },
    { pw: 'a', hash: '$2y$04$abcdefghijklmnopqrstuvRTfsqmmoo/BKLsVj.Asb.hdgJmoICkBu' }, // salt not normalized
    { pw: 'a', hash: '$1$abc$def' },
    { pw: 'a', hash: '' },
    { pw: 'a', hash: bcrypt('a', parseSetting('$2y$04$abcdefghijklmnopqrstuu')!).slice(0, 59) },
  ];
  const edgePhp = phpGolden(
    'plugins/util/password-verify-edge',
    edge.map((e) => ({ fn: '__eval', args: [`return password_verify(${phpLiteral(e.pw)}, ${phpLiteral(e.hash)});`] })),
  );
  it.each(edge.map((e, i) => [i, e.hash] as const))('verify edge #%i %s', (i) => {
    expect(passwordVerify.run(edge[i].pw, [edge[i].hash], ctx)).toBe(edgePhp[i].value);
  });

  const errors: [Value, Value, Value][] = [
    ['a\0b', '2y', null],
    ['a', 'zz', null],
    ['a', '2y', cost(3)],
    ['a', '2y', cost(32)],
    ['a', 7, null],
    ['a', PhpArray.fromList([]), null],
  ];
  const errorsPhp = phpGolden(
    'plugins/util/password-hash-errors',
    errors.map(([pw, algo, opts]) => ({
      fn: 'password_hash',
      args: [
        pw,
        algo instanceof PhpArray ? [] : algo,
        ...(opts instanceof PhpArray ? [{ $assoc: [['cost', opts.get('cost')]] }] : []),
      ],
    })),
  );
  it.each(errors.map((e, i) => [i, JSON.stringify(e[1])] as const))('password_hash error #%i algo %s', (i) => {
    expect(errorsPhp[i].ok).toBe(false);
    const [pw, algo, opts] = errors[i];
    expect(() => passwordHash.run(pw, [algo, opts], ctx)).toThrow(PhpTypeError);
  });

  it('accepts every bcrypt spelling of the algorithm', () => {
    for (const algo of [null, '2y', 0, 1, true, false])
      expect(passwordHash.run('x', [algo, cost(4)], ctx)).toMatch(/^\$2y\$04\$/);
  });

  it('refuses costs that would blow the render budget', () => {
    expect(() => passwordHash.run('x', ['2y', cost(13)], ctx)).toThrow(LimitError);
    expect(() =>
      passwordVerify.run('x', ['$2y$14$abcdefghijklmnopqrstuuMFdJu9yVgmagVAIC24fOZkaFqd3s9JC'], ctx),
    ).toThrow(LimitError);
  });
});

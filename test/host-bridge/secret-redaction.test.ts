/**
 * HH-03: the redaction of secret values from what the bridge answers. The matcher against a
 * naive search on seeded random texts, the forms against PHP (urlencode, rawurlencode,
 * base64_encode, json_encode, htmlspecialchars) and Node's own encoders, the redactor's
 * markers, bounds and values (strings, keys, numbers), and its cost on a capped body.
 */
import { describe, expect, it } from 'vitest';
import { MultiMatcher } from '../../src/bridge/multi-match.js';
import { secretForms } from '../../src/bridge/secret-forms.js';
import {
  MAX_PATTERN_CHARS,
  MAX_REDACTIONS,
  MAX_SECRETS_PER_RENDER,
  SecretRedactor,
} from '../../src/bridge/secret-redactor.js';
import { SecretHandles } from '../../src/bridge/secret-handles.js';
import { BridgeError } from '../../src/host-api/errors.js';
import { fromBytes } from '../../src/value/bytes.js';
import { Prng } from '../support/prng.js';
import { callPhp, phpAvailable, taggedBytes } from '../support/php-oracle.js';

/** Every [start, end) where some pattern occurs, overlapping ones merged: the reference. */
function naive(text: string, patterns: string[]): [number, number][] {
  const covered: [number, number][] = [];
  for (let end = 1; end <= text.length; end++) {
    let longest = 0;
    for (const p of patterns)
      if (p.length > longest && p.length <= end && text.slice(end - p.length, end) === p) longest = p.length;
    if (longest === 0) continue;
    let start = end - longest;
    while (covered.length > 0 && covered[covered.length - 1]![1] > start) start = Math.min(start, covered.pop()![0]);
    covered.push([start, end]);
  }
  return covered;
}

function code(f: () => unknown): string {
  try {
    f();
    return 'OK';
  } catch (e) {
    return e instanceof BridgeError ? e.code : `RAW ${String(e)}`;
  }
}

describe('MultiMatcher', () => {
  it('finds the same occurrences as a naive search on random texts over a small alphabet', () => {
    const rnd = new Prng(0x5ec7e7);
    const alphabet = ['a', 'b', 'c', 'é', '\udc80', '%', '2'];
    const word = (lo: number, hi: number): string =>
      Array.from({ length: rnd.int(lo, hi) }, () => rnd.pick(alphabet)).join('');
    for (let round = 0; round < 400; round++) {
      const patterns = Array.from({ length: rnd.int(1, 6) }, () => word(1, 6));
      const text = word(0, 200);
      const m = new MultiMatcher(patterns.map((text, tag) => ({ text, tag })));
      const got = m.find(text)!.map((x) => [x.start, x.end]);
      expect(got, `${JSON.stringify(patterns)} in ${JSON.stringify(text)}`).toEqual(naive(text, patterns));
    }
  });

  it('tags a match with the pattern it found, and stops past the limit', () => {
    const m = new MultiMatcher([
      { text: 'secret', tag: 0 },
      { text: 'token', tag: 1 },
    ]);
    expect(m.find('a token and a secret')).toEqual([
      { start: 2, end: 7, tag: 1 },
      { start: 14, end: 20, tag: 0 },
    ]);
    expect(m.find('secret secret secret', 2)).toBeNull();
    expect(new MultiMatcher([]).find('anything')).toEqual([]);
  });

  it('stays linear on texts built to make a naive search quadratic', () => {
    const p = `${'a'.repeat(2000)}b`;
    const m = new MultiMatcher([{ text: p, tag: 0 }]);
    const text = 'a'.repeat(4 * 1024 * 1024);
    const t0 = performance.now();
    expect(m.find(text)).toEqual([]);
    const ms = performance.now() - t0;
    // Reported, not asserted (shared machine); a quadratic search would take hours here.
    console.log(`MultiMatcher: 4 MiB of "a" against a 2,001-char pattern in ${ms.toFixed(0)} ms`);
  });
});

describe('secretForms', () => {
  const VALUES = [
    'tok-value-123456',
    'Own/Pw+= &?"\\é~*\'()-42',
    'a',
    '名前:パス/ワード',
    'dXNlcjpwYXNzd29yZA==',
    `x${'\udc80'}y\u0001z`,
  ];

  it.skipIf(!phpAvailable())(
    'holds what PHP makes of the value: urlencode, rawurlencode, base64_encode, json_encode, htmlspecialchars',
    () => {
      const fns = ['urlencode', 'rawurlencode', 'base64_encode', 'json_encode', 'htmlspecialchars', 'strtolower'];
      const calls = VALUES.flatMap((v) =>
        fns.map((fn) => ({
          fn,
          args: [
            {
              $bytes: Buffer.from(
                v === VALUES[5] ? Buffer.from([0x78, 0x80, 0x79, 0x01, 0x7a]) : Buffer.from(v, 'utf8'),
              ).toString('base64'),
            },
          ],
        })),
      );
      const results = callPhp(calls);
      for (const [i, r] of results.entries()) {
        const v = VALUES[Math.floor(i / fns.length)]!;
        const fn = fns[i % fns.length]!;
        // json_encode refuses invalid UTF-8; htmlspecialchars replaces it (the value is no longer there).
        if (!r.ok || r.value === false || (fn === 'htmlspecialchars' && v === VALUES[5])) continue;
        let php = fromBytes(taggedBytes(r.value!));
        if (fn === 'json_encode') php = php.slice(1, -1);
        // A form under 4 characters would match ordinary text; only the raw value is kept that short.
        if ((php.length < 4 && php !== v) || (fn === 'base64_encode' && v.length < 4)) continue;
        const forms = secretForms(v)!;
        // base64: the characters that depend on the secret alone (the last one mixes in the padding).
        if (fn === 'base64_encode')
          expect(
            forms.some((f) => f.length >= 4 && php.includes(f)),
            `${fn}(${JSON.stringify(v)})`,
          ).toBe(true);
        else expect(forms, `${fn}(${JSON.stringify(v)}) = ${JSON.stringify(php)}`).toContain(php);
      }
    },
  );

  it("holds what Node's encoders make of the value, and base64 at any offset of a longer encoding", () => {
    for (const v of VALUES.slice(0, 5).filter((x) => x.length >= 4)) {
      const forms = secretForms(v)!;
      const inside = (s: string): boolean => forms.some((f) => f.length >= 4 && s.includes(f));
      expect(inside(encodeURIComponent(v)), 'encodeURIComponent').toBe(true);
      expect(inside(encodeURI(v)), 'encodeURI').toBe(true);
      expect(inside(new URLSearchParams({ k: v }).toString()), 'URLSearchParams').toBe(true);
      expect(inside(new URL(`https://x.example/?k=${v}`).search), 'URL query').toBe(true);
      const all = [...Buffer.from(v, 'utf8')]
        .map((b) =>
          /[A-Za-z0-9]/.test(String.fromCharCode(b))
            ? String.fromCharCode(b)
            : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
        )
        .join('');
      expect(inside(all), 'everything encoded').toBe(true);
      expect(inside(JSON.stringify(v)), 'JSON.stringify').toBe(true);
      for (const prefix of ['', 'u', 'us', 'user:', 'Basic ']) {
        const b = Buffer.from(prefix + v + 'tail', 'utf8');
        expect(inside(b.toString('base64')), `base64 of ${JSON.stringify(prefix)} + value`).toBe(true);
        expect(inside(b.toString('base64url')), `base64url of ${JSON.stringify(prefix)} + value`).toBe(true);
      }
    }
  });

  it('holds the decoded bytes of a value that is itself base64 (stored Basic credentials)', () => {
    expect(secretForms('dXNlcjpwYXNzd29yZA==')).toContain('user:password');
  });
});

describe('SecretRedactor', () => {
  it('replaces every form with the marker naming the secret', () => {
    const r = new SecretRedactor();
    const v = 'Own/Pw+= &?"\\é~*\'()-42';
    r.add('PW', v);
    const text = [
      v,
      encodeURIComponent(v),
      Buffer.from(`user:${v}`).toString('base64'),
      JSON.stringify(v),
      v.toUpperCase(),
    ].join(' | ');
    // Base64 keeps the characters that mix in the bytes around the secret; JSON its quotes.
    expect(r.redact(text)).toBe(
      '[secret:PW redacted] | [secret:PW redacted] | dXNlcjp[secret:PW redacted]g== | "[secret:PW redacted]" | [secret:PW redacted]',
    );
  });

  it('redacts strings, keys and numbers of a value; a numeric secret in a number becomes the marker', () => {
    const r = new SecretRedactor();
    r.add('PIN', '73519246');
    r.add('K', 'key-value-xyz');
    const v = r.redactTransfer({
      a: [
        [73519246, 'x'],
        ['key-value-xyz', { o: [['n', 735192460]] }],
        ['f', { f: 73519246.5 }],
        ['ok', 12],
      ],
    });
    expect(v).toEqual({
      a: [
        ['[secret:PIN redacted]', 'x'],
        ['[secret:K redacted]', { o: [['n', '[secret:PIN redacted]0']] }],
        ['f', '[secret:PIN redacted].5'],
        ['ok', 12],
      ],
    });
  });

  it('redacts a list as its pairs: its strings, and an index that shows a numeric secret (D345)', () => {
    const r = new SecretRedactor();
    r.add('PIN', '2');
    r.add('K', 'key-value-xyz');
    expect(r.redactTransfer({ l: ['a', 'key-value-xyz', { l: [1] }] })).toEqual({
      a: [
        [0, 'a'],
        [1, '[secret:K redacted]'],
        ['[secret:PIN redacted]', { a: [[0, 1]] }],
      ],
    });
  });

  it('never answers a form that a marker would complete', () => {
    // The secret's own text holds its marker: removing the inner echo would rebuild it.
    const r = new SecretRedactor();
    r.add('K', 'x[secret:K redacted]y');
    expect(code(() => r.redact('xx[secret:K redacted]yy'))).toBe('E_SECRET_DENIED');
  });

  it('bounds: distinct secrets, pattern size, replacements and growth per answer', () => {
    const r = new SecretRedactor();
    for (let i = 0; i < MAX_SECRETS_PER_RENDER; i++) r.add(`S${i}`, `secret-number-${i}`);
    r.add('AGAIN', 'secret-number-0'); // the same value again costs nothing
    expect(code(() => r.add('ONE_MORE', 'another-secret'))).toBe('E_QUOTA');
    expect(code(() => new SecretRedactor().add('LONG', 'é/'.repeat(MAX_PATTERN_CHARS / 32)))).toBe('E_QUOTA'); // forms over the budget
    expect(code(() => new SecretRedactor().add('HUGE', 'x'.repeat(4 * 1024 * 1024)))).toBe('E_QUOTA'); // refused before its forms are made
    const small = new SecretRedactor();
    small.add('S', 'abcd');
    expect(code(() => small.redact('abcd '.repeat(MAX_REDACTIONS + 1)))).toBe('E_SIZE_LIMIT');
    const long = new SecretRedactor();
    long.add('N'.repeat(128), 'wxyz');
    expect(code(() => long.redact('wxyz'.repeat(MAX_REDACTIONS - 1)))).toBe('E_SIZE_LIMIT');
  });

  it('redacts a capped body in linear time (figure reported)', () => {
    const r = new SecretRedactor();
    r.add('TOKEN', 'tok-value-123456');
    r.add('PW', 'Own/Pw+= &?"\\é~*\'()-42');
    const body = 'x'.repeat(10 * 1024 * 1024 - 40) + 'tok-value-123456';
    const t0 = performance.now();
    const out = r.redact(body);
    const ms = performance.now() - t0;
    expect(out.endsWith('[secret:TOKEN redacted]')).toBe(true);
    console.log(`SecretRedactor: 10 MiB body, 2 secrets in ${ms.toFixed(0)} ms`);
  });
});

describe('SecretHandles.redactAnswer', () => {
  it('covers assigned values, block items, output, logs, errors and modifier values', () => {
    const s = new SecretHandles();
    s.issue('T', { value: 'tok-value-123456', hosts: [] });
    const a = s.redactAnswer({
      ok: true,
      assign: [['r', 'tok-value-123456']],
      iterate: { var: 'i', items: [{ a: [['k', 'tok-value-123456']] }] },
      output: 'out tok-value-123456',
      log: [{ level: 'warning', message: 'log tok-value-123456' }],
    });
    expect(JSON.stringify(a)).not.toContain('tok-value');
    expect(a).toMatchObject({ output: 'out [secret:T redacted]' });
    const failed = s.redactAnswer({ ok: false, error: { code: 'E_HOST_FAILED', message: 'err tok-value-123456' } });
    expect(failed).toEqual({ ok: false, error: { code: 'E_HOST_FAILED', message: 'err [secret:T redacted]' } });
    expect(JSON.stringify(s.redactAnswer({ ok: true, value: 'tok-value-123456' }))).not.toContain('tok-value');
  });

  it('redacts plain-data values ({ p }) too, keys and values, as the pairs they stand for', () => {
    const s = new SecretHandles();
    s.issue('T', { value: 'tok-value-123456', hosts: [] });
    const a = s.redactAnswer({
      ok: true,
      assign: [['r', { p: { list: ['tok-value-123456', 1], 'tok-value-123456': { k: 'tok-value-123456' } } }]],
    });
    expect(JSON.stringify(a)).not.toContain('tok-value');
    expect(a).toEqual({
      ok: true,
      assign: [
        [
          'r',
          {
            a: [
              [
                'list',
                {
                  a: [
                    [0, '[secret:T redacted]'],
                    [1, 1],
                  ],
                },
              ],
              ['[secret:T redacted]', { a: [['k', '[secret:T redacted]']] }],
            ],
          },
        ],
      ],
    });
  });

  it('leaves the handles of this render whole, even when a short value matches their text', () => {
    const s = new SecretHandles();
    const h = s.issue('S', { value: 'secret' });
    const other = new SecretHandles().issue('S', { value: 'secret' });
    const a = s.redactAnswer({
      ok: true,
      assign: [
        ['s', h],
        ['t', `${h} secret`],
        ['u', other],
      ],
    });
    // "[secret:S redacted]" would show the value again: the marker falls back to one that does not.
    expect('assign' in a && a.assign).toEqual([
      ['s', h],
      ['t', `[[redacted]:S:${h.slice(10, -1)}] [redacted]`],
      ['u', `[[redacted]:S:${other.slice(10, -1)}]`],
    ]);
  });
});

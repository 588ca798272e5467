import { describe, expect, it } from 'vitest';
import { FileError, quoteVirtualPath } from '../../../src/host-adapters/files/errors.js';
import {
  KNOWN_ROOTS,
  joinSegment,
  parseVirtualPath,
  segmentProblem,
} from '../../../src/host-adapters/files/virtual-path.js';
import { ALLOW_FORMS, DENY_FORMS, NON_STRINGS, STATIC_DENY } from './corpus.js';

function denied(fn: () => unknown): FileError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FileError);
    expect((e as FileError).code).toBe('E_PATH_DENIED');
    return e as FileError;
  }
  throw new Error('expected E_PATH_DENIED, got success');
}

describe('parseVirtualPath: canonical form', () => {
  it('parses every known root and its children', () => {
    for (const r of KNOWN_ROOTS) {
      expect(parseVirtualPath(r)).toEqual({ root: r, segments: [], text: r, trailingSlash: false });
      expect(parseVirtualPath(r + '/')).toEqual({ root: r, segments: [], text: r, trailingSlash: true });
      expect(parseVirtualPath(`${r}/a/b.csv`)).toEqual({
        root: r,
        segments: ['a', 'b.csv'],
        text: `${r}/a/b.csv`,
        trailingSlash: false,
      });
    }
  });

  it('returns frozen objects', () => {
    const p = parseVirtualPath('/files/user/a');
    expect(Object.isFrozen(p)).toBe(true);
    expect(Object.isFrozen(p.segments)).toBe(true);
  });

  it('/files/member/ext is matched as one root; /files/member is not a root', () => {
    expect(parseVirtualPath('/files/member/ext/1/a.pdf').root).toBe('/files/member/ext');
    denied(() => parseVirtualPath('/files/member/x.pdf'));
    denied(() => parseVirtualPath('/files/member'));
  });

  it('FS-08: NFC and NFD name the same canonical path', () => {
    const nfd = parseVirtualPath('/files/user/Re\u0301sume\u0301.csv');
    const nfc = parseVirtualPath('/files/user/R\u00e9sum\u00e9.csv');
    expect(nfd.text).toBe(nfc.text);
    expect(nfd.text).toBe(nfd.text.normalize('NFC'));
  });

  it('FS-08: case is preserved below the root and roots are case-sensitive', () => {
    expect(parseVirtualPath('/files/user/Report.csv').text).not.toBe(parseVirtualPath('/files/user/report.csv').text);
    denied(() => parseVirtualPath('/files/USER/report.csv'));
  });

  it('leading slash modes', () => {
    expect(parseVirtualPath('files/g/a', { leadingSlash: 'forbidden' }).text).toBe('/files/g/a');
    denied(() => parseVirtualPath('/files/g/a', { leadingSlash: 'forbidden' }));
    denied(() => parseVirtualPath('files/g/a'));
    denied(() => parseVirtualPath('files/g/a', { leadingSlash: 'required' }));
    expect(parseVirtualPath('files/g/a', { leadingSlash: 'optional' }).text).toBe('/files/g/a');
    expect(parseVirtualPath('/files/g/a', { leadingSlash: 'optional' }).text).toBe('/files/g/a');
  });

  it('percent: only escape-looking sequences are denied, nothing is decoded', () => {
    expect(parseVirtualPath('/files/user/100%.csv').text).toBe('/files/user/100%.csv');
    expect(parseVirtualPath('/files/user/%zz').text).toBe('/files/user/%zz');
    denied(() => parseVirtualPath('/files/user/%41'));
    denied(() => parseVirtualPath('/files/user/%u0041'));
  });

  it('rejects non-strings', () => {
    for (const v of NON_STRINGS) denied(() => parseVirtualPath(v));
  });

  it('segmentProblem names the reason', () => {
    expect(segmentProblem('..')).toBe('dot-segment');
    expect(segmentProblem('CON.txt')).toBe('device-name');
    expect(segmentProblem('a.')).toBe('trailing-dot-or-space');
    expect(segmentProblem('a\\b')).toBe('backslash');
    expect(segmentProblem('a\u202eb')).toBe('control-character');
    expect(segmentProblem('ok.csv')).toBeNull();
  });

  it('joinSegment accepts exactly one good segment', () => {
    const dir = parseVirtualPath('/files/topics');
    expect(joinSegment(dir, 'scan.pdf').text).toBe('/files/topics/scan.pdf');
    for (const bad of ['../x', '..', 'a/b', '', '.', 'a\\b', 'CON', 'a\0', 42, '\uff0e\uff0e'])
      denied(() => joinSegment(dir, bad));
  });
});

describe('parseVirtualPath: deny corpus (syntax, every root, every leading-slash mode)', () => {
  const modes = ['required', 'forbidden', 'optional'] as const;
  it('has at least 90 forms', () => {
    expect(DENY_FORMS.length + STATIC_DENY.length).toBeGreaterThanOrEqual(90);
    expect(new Set(DENY_FORMS.map((f) => f.id)).size).toBe(DENY_FORMS.length);
  });

  for (const f of DENY_FORMS) {
    it(`denies ${f.id}`, () => {
      for (const r of KNOWN_ROOTS) {
        const withSlash = f.form(r);
        const without = withSlash.startsWith('/') ? withSlash.slice(1) : withSlash;
        for (const m of modes) {
          for (const input of [withSlash, without]) {
            const e = denied(() => parseVirtualPath(input, { leadingSlash: m }));
            expect(e.message.length).toBeLessThan(600);
          }
        }
      }
    });
  }

  it('denies every static foreign form (the root-less ones in every mode)', () => {
    for (const s of STATIC_DENY) {
      for (const m of modes) denied(() => parseVirtualPath(s, { leadingSlash: m }));
    }
  });
});

describe('parseVirtualPath: allow corpus', () => {
  it('has at least 25 forms', () => expect(ALLOW_FORMS.length).toBeGreaterThanOrEqual(25));
  for (const a of ALLOW_FORMS) {
    it(`accepts ${a.id} under every root`, () => {
      for (const r of KNOWN_ROOTS) {
        const p = parseVirtualPath(r + a.rest);
        expect(p.root).toBe(r);
        expect(p.text).toBe(r + (a.expect ?? a.rest));
        // idempotent
        expect(parseVirtualPath(p.text).text).toBe(p.text);
      }
    });
  }
});

describe('error messages', () => {
  it('quote the template path escaped and truncated to 200 characters', () => {
    const long = '/files/user/' + 'x'.repeat(500) + '/../y';
    const e = denied(() => parseVirtualPath(long));
    expect(e.virtualPath.length).toBeLessThanOrEqual(200 + 5);
    expect(e.message).not.toContain('x'.repeat(201));
    const c = denied(() => parseVirtualPath('/files/user/a\u0000b\n\u202e'));
    expect(c.message).toContain('\\u0000');
    expect(c.message).toContain('\\u000a');
    expect(c.message).toContain('\\u202e');
    expect(/[\u0000-\u001f\u202e]/.test(c.message)).toBe(false);
    expect(quoteVirtualPath(undefined)).toBe('(missing)');
    expect(quoteVirtualPath(3)).toBe('(number)');
  });
});

describe('random fuzz: anything accepted is canonical', () => {
  const pieces = [
    '/',
    '/',
    '/',
    'files',
    'user',
    'g',
    'a',
    'temp',
    'member',
    'ext',
    '..',
    '.',
    '%2e',
    '%',
    '\\',
    ':',
    ' ',
    '\u0000',
    '\u00e9',
    'e\u0301',
    '\uff0e',
    'CON',
    'x.csv',
    '~',
    '#',
    '?',
    '\u202e',
    'file:',
    '//',
  ];
  it('10 000 random paths', () => {
    let seed = 12345;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let accepted = 0;
    for (let i = 0; i < 10_000; i++) {
      let s = rnd(3) === 0 ? '' : '/files/';
      const n = 1 + rnd(8);
      for (let j = 0; j < n; j++) s += pieces[rnd(pieces.length)];
      let p;
      try {
        p = parseVirtualPath(s, { leadingSlash: 'optional' });
      } catch (e) {
        expect(e).toBeInstanceOf(FileError);
        continue;
      }
      accepted++;
      expect(KNOWN_ROOTS).toContain(p.root);
      expect(p.text === p.root || p.text.startsWith(p.root + '/')).toBe(true);
      expect(p.text).toBe(p.text.normalize('NFC'));
      for (const seg of p.segments) {
        expect(seg === '' || seg === '.' || seg === '..').toBe(false);
        expect(/[\\:\u0000-\u001f\u202e?*]/.test(seg)).toBe(false);
        expect(segmentProblem(seg)).toBeNull();
      }
      expect(parseVirtualPath(p.text).text).toBe(p.text);
    }
    expect(accepted).toBeGreaterThan(50);
  });
});

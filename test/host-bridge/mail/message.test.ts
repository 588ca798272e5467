/** The message builder: encoded-words, folding, transfer encodings, header checks. */
import { describe, expect, it } from 'vitest';
import {
  buildMessage,
  chooseEncoding,
  encodedWords,
  foldHeader,
  headerSafe,
  quotedPrintable,
  unstructured,
} from '../../../src/host-adapters/mail/message.js';

const decode = (words: string[]) =>
  Buffer.concat(words.map((w) => Buffer.from(w.slice(10, -2), 'base64'))).toString('utf8');

describe('encoded-words', () => {
  it('never cuts a UTF-8 sequence and stays within 75 characters', () => {
    for (const text of ['日本語の件名'.repeat(10), '😀'.repeat(40), `a${'é'.repeat(50)}`, 'x'.repeat(200)]) {
      const words = encodedWords(text);
      for (const w of words) {
        expect(w.length).toBeLessThanOrEqual(75);
        expect(w).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/);
        expect(() =>
          new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(w.slice(10, -2), 'base64')),
        ).not.toThrow();
      }
      expect(decode(words)).toBe(text);
    }
  });

  it('keeps printable ASCII subjects readable and encodes the rest', () => {
    expect(unstructured('Subject', 'Hello world')).toBe('Subject: Hello world');
    expect(unstructured('Subject', '')).toBe('Subject: ');
    expect(unstructured('Subject', 'a =?UTF-8?B?eA==?= b')).toMatch(/^Subject: =\?UTF-8\?B\?/);
    expect(unstructured('Subject', ' leading')).toMatch(/^Subject: =\?UTF-8\?B\?/);
    expect(unstructured('Subject', 'tab\there')).toMatch(/^Subject: =\?UTF-8\?B\?/);
    const long = unstructured('Subject', Array.from({ length: 30 }, (_, i) => `word${i}`).join(' '));
    expect(long.split('\r\n').every((l) => l.length <= 78)).toBe(true);
    expect(long.replace(/\r\n/g, '')).toBe(`Subject: ${Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ')}`);
    expect(
      unstructured('Subject', 'x'.repeat(2000))
        .split('\r\n')
        .every((l) => l.length <= 78),
    ).toBe(true);
  });

  it('folds only at spaces it inserts itself', () => {
    expect(foldHeader('To', ['a@example.org,', 'b@example.org'])).toBe('To: a@example.org, b@example.org');
  });
});

describe('header safety', () => {
  it('refuses CR, LF, NUL and other controls, allows TAB and Unicode', () => {
    for (const bad of ['a\rb', 'a\nb', 'a\0b', 'a\u001bb', 'a\u007fb', 'a\u000bb']) expect(headerSafe(bad)).toBe(false);
    for (const good of ['a\tb', 'ä', '日本', 'a\u2028b']) expect(headerSafe(good)).toBe(true);
    expect(() => unstructured('Subject', 'x\r\nBcc: a@b.example')).toThrow(/line break/);
  });

  it('writes no Bcc and no header from body text', () => {
    const m = buildMessage({
      from: { address: 'a@example.com', name: '' },
      to: ['b@example.org'],
      cc: [],
      subject: 's',
      body: 'Bcc: x@evil.example\n',
      date: 0,
      messageId: '<m1@h.example>',
    });
    const head = m.slice(0, m.indexOf('\r\n\r\n'));
    expect(head).not.toMatch(/Bcc/);
    expect(m.endsWith('\r\n\r\nBcc: x@evil.example\r\n')).toBe(true);
  });
});

describe('transfer encodings', () => {
  it('chooses 7bit, quoted-printable or base64', () => {
    expect(chooseEncoding('plain\nascii')).toBe('7bit');
    expect(chooseEncoding('x'.repeat(999))).toBe('quoted-printable');
    expect(chooseEncoding('mostly ascii with é')).toBe('quoted-printable');
    expect(chooseEncoding('日本語の本文です')).toBe('base64');
  });

  it('quoted-printable: soft breaks within 76, trailing whitespace and = encoded', () => {
    expect(quotedPrintable('a = b \nc\t')).toBe('a =3D b=20\r\nc=09');
    const long = quotedPrintable('é'.repeat(100));
    expect(long.split('\r\n').every((l) => l.length <= 76)).toBe(true);
    expect(
      long
        .split('\r\n')
        .slice(0, -1)
        .every((l) => l.endsWith('=')),
    ).toBe(true);
  });
});

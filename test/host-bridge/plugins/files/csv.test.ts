/** CSV as PHP's fgetcsv reads it and fputcsv writes it (pure functions, no engine). */
import { describe, expect, it } from 'vitest';
import { formatCsvLine, parseCsvLines } from '../../../../src/host-plugins/files/csv.js';
import { PhpArray, PhpFloat } from '../../../../src/value/value.js';

describe('fgetcsv', () => {
  const p = (text: string) => parseCsvLines(text.split('\n'));
  it('plain fields, trailing separator, empty fields', () => {
    expect(p('a,b,c')).toEqual([['a', 'b', 'c']]);
    expect(p('a,,c,')).toEqual([['a', '', 'c', '']]);
  });
  it('a blank line is one null field', () => {
    expect(p('a\n\nb')).toEqual([['a'], [null], ['b']]);
  });
  it('enclosures: doubled quotes, separators and line breaks inside', () => {
    expect(p('"a ""quoted"" word","x,y"')).toEqual([['a "quoted" word', 'x,y']]);
    expect(p('1,"two\nlines",3\n4')).toEqual([['1', 'two\nlines', '3'], ['4']]);
  });
  it('the escape character keeps itself and the next character', () => {
    expect(p('"a\\"b",c')).toEqual([['a\\"b', 'c']]);
  });
  it('spaces before an enclosure are skipped, other spaces kept', () => {
    expect(p('  "a" , b ')).toEqual([['a ', ' b ']]);
  });
  it('text after the closing enclosure is appended', () => {
    expect(p('"ab"cd,e')).toEqual([['abcd', 'e']]);
  });
  it('an enclosure open at the end of the file ends the field there', () => {
    expect(p('"abc\ndef')).toEqual([['abc\ndef']]);
  });
  it('multibyte text is kept', () => {
    expect(p('名前,"東京, 日本"')).toEqual([['名前', '東京, 日本']]);
  });
});

describe('fputcsv', () => {
  const f = (...v: Parameters<typeof PhpArray.fromList>[0]) => formatCsvLine(PhpArray.fromList(v));
  it('encloses only when needed', () => {
    expect(f('a', 'b c', 'd,e', 'f"g', 'h\ni', 'j\tk', 'plain')).toBe('a,"b c","d,e","f""g","h\ni","j\tk",plain\n');
  });
  it('PHP string conversion of scalars', () => {
    expect(f(1, new PhpFloat(1.5), true, false, null, '')).toBe('1,1.5,1,,,\n');
  });
  it('a quote after the escape character is not doubled', () => {
    expect(f('a\\"b')).toBe('"a\\"b"\n');
    expect(f('a\\\\"b')).toBe('"a\\\\"b"\n');
  });
  it('nested arrays are written as Array', () => {
    expect(f(PhpArray.fromList([1]))).toBe('Array\n');
  });
});

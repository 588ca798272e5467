import { afterEach, describe, expect, it } from 'vitest';
import {
  applyJsonText,
  commaTextToList,
  dateInputToValue,
  datetimeInputToValue,
  jsonTextToValue,
  listToCommaText,
  numberToText,
  slashDatetimeToValue,
  slashDateToValue,
  textToNumber,
  valueToDateInput,
  valueToDatetimeInput,
  valueToSlashDate,
  valueToSlashDatetime,
  valueToJsonText,
} from '../../src/forms/coerce.js';
import { createValidator } from '../../src/forms/validator.js';

describe('text <-> number', () => {
  it.each<[string, number | null]>([
    ['', null],
    ['   ', null],
    ['0', 0],
    ['42', 42],
    ['-3.5', -3.5],
    ['+7', 7],
    ['.5', 0.5],
    ['1e3', 1000],
    [' 12 ', 12],
    ['１２３', 123],
    ['－４．５', -4.5],
    ['\u22122', -2],
  ])('%j -> %j', (text, n) => {
    expect(textToNumber(text)).toEqual({ ok: true, value: n });
  });
  it.each(['abc', '1,000', '0x10', 'Infinity', 'NaN', '1e999', '1.2.3', '--1'])('%j is refused with en/ja', (text) => {
    const r = textToNumber(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.en).toBe(`"${text}" is not a number.`);
      expect(r.error.ja).toBe(`「${text}」は数値ではありません。`);
    }
  });
  it('number -> text, and round-trips', () => {
    expect(numberToText(null)).toBe('');
    expect(numberToText(undefined)).toBe('');
    expect(numberToText(1.25)).toBe('1.25');
    for (const n of [0, -1, 3.14159, 1e21, 123456789])
      expect(textToNumber(numberToText(n))).toEqual({ ok: true, value: n });
  });
});

describe('comma text <-> string[]', () => {
  it.each<[string, string[]]>([
    ['', []],
    ['  ', []],
    ['a', ['a']],
    ['a,b', ['a', 'b']],
    [' a , b ,c ', ['a', 'b', 'c']],
    ['a,,b,', ['a', 'b']],
    ['東京、大阪', ['東京、大阪']],
    ['東京，大阪', ['東京', '大阪']],
    ['a\nb\r\nc', ['a', 'b', 'c']],
    ['\u3000全角\u3000, x', ['全角', 'x']],
    ['a,a', ['a', 'a']],
  ])('%j -> %j', (text, list) => {
    expect(commaTextToList(text)).toEqual(list);
  });
  it('list -> text joins with ", " and round-trips trimmed items without commas', () => {
    expect(listToCommaText(['a', 'b c', '日本'])).toBe('a, b c, 日本');
    expect(listToCommaText([])).toBe('');
    expect(listToCommaText(null)).toBe('');
    for (const l of [[], ['x'], ['a b', 'c'], ['タグ', 'tag']]) expect(commaTextToList(listToCommaText(l))).toEqual(l);
  });
});

describe('date input <-> value', () => {
  it('valid, empty and invalid', () => {
    expect(dateInputToValue('2024-02-29')).toEqual({ ok: true, value: '2024-02-29' });
    expect(dateInputToValue('')).toEqual({ ok: true, value: null });
    expect(dateInputToValue('2023-02-29').ok).toBe(false);
    expect(dateInputToValue('2024/01/01').ok).toBe(false);
    expect(valueToDateInput('2024-01-31')).toBe('2024-01-31');
    expect(valueToDateInput(null)).toBe('');
    expect(valueToDateInput('2024-01-31T00:00:00Z')).toBe('');
  });
});

describe('datetime-local <-> stored date-time (YYYY-MM-DDTHH:mm:ss±hh:mm in the site zone)', () => {
  const savedTz = process.env.TZ;
  afterEach(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });
  const validator = createValidator({ type: 'object', properties: { d: { type: 'string', format: 'date-time' } } });

  for (const tz of ['Asia/Tokyo', 'UTC']) {
    describe(`process TZ=${tz}`, () => {
      it('an explicit site zone gives the same result whatever the process zone', () => {
        process.env.TZ = tz;
        expect(datetimeInputToValue('2024-05-01T10:30', { timeZone: 'Asia/Tokyo' })).toEqual({
          ok: true,
          value: '2024-05-01T10:30:00+09:00',
        });
        expect(datetimeInputToValue('2024-05-01T10:30:45', { timeZone: 'Asia/Tokyo' })).toEqual({
          ok: true,
          value: '2024-05-01T10:30:45+09:00',
        });
        expect(datetimeInputToValue('2024-05-01T10:30', { timeZone: 'UTC' })).toEqual({
          ok: true,
          value: '2024-05-01T10:30:00+00:00',
        });
        expect(valueToDatetimeInput('2024-05-01T10:30:00+09:00', { timeZone: 'Asia/Tokyo' })).toBe(
          '2024-05-01T10:30:00',
        );
        expect(valueToDatetimeInput('2024-05-01T01:30:00Z', { timeZone: 'Asia/Tokyo' })).toBe('2024-05-01T10:30:00');
        expect(valueToDatetimeInput('2024-05-01T10:30:00+09:00', { timeZone: 'UTC' })).toBe('2024-05-01T01:30:00');
        expect(valueToDatetimeInput('2024-12-31T23:59:59-05:00', { timeZone: 'Asia/Tokyo' })).toBe(
          '2025-01-01T13:59:59',
        );
      });

      it('without a site zone the process (browser) zone is used', () => {
        process.env.TZ = tz;
        const expected = tz === 'Asia/Tokyo' ? '2024-05-01T10:30:00+09:00' : '2024-05-01T10:30:00+00:00';
        expect(datetimeInputToValue('2024-05-01T10:30')).toEqual({ ok: true, value: expected });
        expect(valueToDatetimeInput('2024-05-01T01:30:00Z')).toBe(
          tz === 'Asia/Tokyo' ? '2024-05-01T10:30:00' : '2024-05-01T01:30:00',
        );
      });

      it('round-trips, and the stored form passes ajv-formats date-time', () => {
        process.env.TZ = tz;
        for (const zone of ['Asia/Tokyo', 'UTC', 'America/New_York', 'Asia/Kolkata', undefined]) {
          for (const local of [
            '2024-01-01T00:00:00',
            '2024-07-15T12:34:56',
            '1999-12-31T23:59:59',
            '2024-02-29T09:05:00',
          ]) {
            const r = datetimeInputToValue(local, zone ? { timeZone: zone } : {});
            expect(r.ok).toBe(true);
            const stored = (r as { value: string }).value;
            expect(stored).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
            expect(validator.validate({ d: stored })).toEqual([]);
            expect(valueToDatetimeInput(stored, zone ? { timeZone: zone } : {})).toBe(local);
          }
        }
      });
    });
  }

  it('DST: a time in the gap moves forward, an ambiguous time takes the earlier instant', () => {
    expect(datetimeInputToValue('2024-03-10T02:30', { timeZone: 'America/New_York' })).toEqual({
      ok: true,
      value: '2024-03-10T03:30:00-04:00',
    });
    expect(datetimeInputToValue('2024-11-03T01:30', { timeZone: 'America/New_York' })).toEqual({
      ok: true,
      value: '2024-11-03T01:30:00-04:00',
    });
    expect(datetimeInputToValue('2024-01-10T08:00', { timeZone: 'America/New_York' })).toEqual({
      ok: true,
      value: '2024-01-10T08:00:00-05:00',
    });
  });

  it('empty and invalid input', () => {
    expect(datetimeInputToValue('')).toEqual({ ok: true, value: null });
    for (const bad of ['2024-05-01', '2024-05-01T25:00', '2024-02-30T10:00', 'now', '2024-05-01T10:30:00+09:00']) {
      const r = datetimeInputToValue(bad, { timeZone: 'Asia/Tokyo' });
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.error.ja).toContain('日時');
    }
    expect(valueToDatetimeInput(null)).toBe('');
    expect(valueToDatetimeInput('garbage')).toBe('');
    expect(valueToDatetimeInput('2024-05-01T10:30:00', { timeZone: 'UTC' })).toBe('2024-05-01T10:30:00');
    expect(valueToDatetimeInput('2024-05-01T10:30:00.123+0900', { timeZone: 'Asia/Tokyo' })).toBe(
      '2024-05-01T10:30:00',
    );
  });
});

describe('JSON textarea <-> object', () => {
  it('parses objects, blank is null', () => {
    expect(jsonTextToValue('{"a": [1, {"b": null}]}')).toEqual({ ok: true, value: { a: [1, { b: null }] } });
    expect(jsonTextToValue('  ')).toEqual({ ok: true, value: null });
    expect(jsonTextToValue('[1,2]', 'array')).toEqual({ ok: true, value: [1, 2] });
    expect(jsonTextToValue('"x"', 'any')).toEqual({ ok: true, value: 'x' });
  });
  it('invalid JSON never overwrites: the previous value is kept, with an en/ja error and position', () => {
    const prev = { keep: true };
    const r = applyJsonText(prev, '{\n  "a": 1,\n  b: 2\n}');
    expect(r.value).toBe(prev);
    expect(r.error!.en).toMatch(/^Invalid JSON at line 3, column \d+; the previous value is kept\.$/);
    expect(r.error!.ja).toMatch(/^JSONの形式が正しくありません（3行目 \d+文字目付近）。以前の値のままです。$/);
    const r2 = applyJsonText(prev, '{"a": ');
    expect(r2.value).toBe(prev);
    expect(r2.error!.en).toContain('Invalid JSON');
  });
  it('JSON of the wrong kind is refused too', () => {
    expect(applyJsonText({ a: 1 }, '[1]')).toEqual({
      value: { a: 1 },
      error: {
        en: 'The JSON text must be an object ({ ... }); the previous value is kept.',
        ja: 'JSONはオブジェクト（{ ... }）でなければなりません。以前の値のままです。',
      },
    });
    expect(applyJsonText([1], '{}', 'array').error!.ja).toContain('配列');
  });
  it('valid JSON replaces the value; text is 2-space JSON and round-trips', () => {
    expect(applyJsonText({ a: 1 }, '{"b":2}')).toEqual({ value: { b: 2 } });
    const v = { x: [1, 'two', { three: true }], 日本: null };
    expect(valueToJsonText(v)).toBe(JSON.stringify(v, null, 2));
    expect(jsonTextToValue(valueToJsonText(v))).toEqual({ ok: true, value: v });
    expect(valueToJsonText(null)).toBe('');
  });
});

describe('dates as a Japanese page writes them (YYYY/MM/DD)', () => {
  const tokyo = { timeZone: 'Asia/Tokyo' };
  it.each([
    ['2024/05/01', '2024-05-01'],
    ['2024/5/1', '2024-05-01'],
    ['２０２４／０５／０１', '2024-05-01'],
    [' 2024-05-01 ', '2024-05-01'],
    ['', null],
  ])('date %j → %j', (text, value) => {
    expect(slashDateToValue(text)).toEqual({ ok: true, value });
  });
  it.each(['2024/02/30', '2024/13/01', '05/01/2024', '2024年5月1日', 'x'])('date %j is refused', (text) => {
    expect(slashDateToValue(text)).toEqual({
      ok: false,
      error: { en: `"${text}" is not a date (YYYY/MM/DD).`, ja: `「${text}」は日付（YYYY/MM/DD）ではありません。` },
    });
  });
  it('a stored date reads back with slashes', () => {
    expect(valueToSlashDate('2024-05-01')).toBe('2024/05/01');
    expect(valueToSlashDate('nope')).toBe('');
  });
  it.each([
    ['2024/05/01 09:30:15', '2024-05-01T09:30:15+09:00'],
    ['2024/5/1 9:30', '2024-05-01T09:30:00+09:00'],
    ['２０２４／０５／０１　０９：３０', '2024-05-01T09:30:00+09:00'],
    ['', null],
  ])('date-time %j → %j in Tokyo', (text, value) => {
    expect(slashDatetimeToValue(text, tokyo)).toEqual({ ok: true, value });
  });
  it.each(['2024/05/01', '2024/05/01 25:00', '2024/05/01 9:3'])('date-time %j is refused', (text) => {
    const r = slashDatetimeToValue(text, tokyo);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.ja).toBe(`「${text}」は日時（YYYY/MM/DD HH:mm:ss）ではありません。`);
  });
  it('a stored date-time reads back in the site zone, with slashes', () => {
    expect(valueToSlashDatetime('2024-05-01T00:30:00Z', tokyo)).toBe('2024/05/01 09:30:00');
    expect(valueToSlashDatetime('bad', tokyo)).toBe('');
    const v = '2024-12-31T23:59:59+09:00';
    expect(slashDatetimeToValue(valueToSlashDatetime(v, tokyo), tokyo)).toEqual({ ok: true, value: v });
  });
});

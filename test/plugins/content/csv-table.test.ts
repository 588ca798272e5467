/**
 * {assign_csv_table} on both backends: rows per language with fallback, get_key_val with
 * key_idx (one or nested), value_idx and multiple, and the filter language (only on allow_list
 * columns, parsed under caps).
 */
import { describe, expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';
import { compileFilter, MAX_CHARS, MAX_CONDITIONS, MAX_DEPTH } from '../../../src/host-plugins/content/csv-filter.js';
import { BridgeError } from '../../../src/host-api/errors.js';

eachBackend('assign_csv_table', (backend) => {
  const bench = siteBench(backend);
  const json = async (attrs: string, vars?: Record<string, unknown>): Promise<unknown> =>
    JSON.parse(await bench.render(`{assign_csv_table var=t ${attrs}}{$t|@json_encode}`, { vars }));

  it("gives the rows as lists of cells, in the site's language or the one asked", async () => {
    const ja = (await json('csvtable_id=1')) as string[][];
    expect(ja).toHaveLength(8);
    expect(ja[2]).toEqual(['13', '東京都', '関東']);
    expect(((await json('csvtable_id=1 lang="en"')) as string[][])[2]).toEqual(['13', 'Tokyo', 'Kanto']);
  });

  it("falls back to the site's language when the table has no rows in the one asked", async () => {
    await bench.sql("DELETE FROM csv_rows WHERE tenant = ? AND table_id = 2 AND lang = 'en'");
    expect(((await json('csvtable_id=2 lang="en"')) as string[][])[0]).toEqual(['1', '渋谷', '13', '03-1234-5678']);
  });

  it('keys rows by a column with get_key_val: value_idx, the whole row, multiple, nested keys', async () => {
    expect(await json('csvtable_id=1 get_key_val=true value_idx=1 lang="en"')).toMatchObject({
      '13': 'Tokyo',
      '27': 'Osaka',
    });
    expect(await json('csvtable_id=1 get_key_val=true key_idx=2 value_idx=1')).toMatchObject({ 関東: '神奈川県' });
    expect(await json('csvtable_id=1 get_key_val=true key_idx=2 value_idx=1 multiple=true')).toMatchObject({
      関東: ['東京都', '神奈川県'],
    });
    expect(await json('csvtable_id=2 get_key_val=true key_idx=$k', { k: [2, 0] })).toMatchObject({
      '13': { '1': ['1', '渋谷', '13', '03-1234-5678'], '2': ['2', '品川', '13', '03-2345-6789'] },
    });
    expect(
      await bench.render(
        '{assign_csv_table var=t csvtable_id=2 get_key_val=true key_idx=2 value_idx=1 multiple=true}{$t.13|@implode:"・"}',
      ),
    ).toBe('渋谷・品川');
  });

  it("refuses a column index past the table's columns", async () => {
    expect(await bench.error('\n{assign_csv_table var=t csvtable_id=1 get_key_val=true value_idx=3}')).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
      line: 2,
    });
    expect(
      await bench.error('{assign_csv_table var=t csvtable_id=1 get_key_val=true key_idx=$k}', {
        vars: { k: [0, 1, 2, 0, 1] },
      }),
    ).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    expect(await bench.error('{assign_csv_table var=t csvtable_id=1 get_key_val=true key_idx="x"}')).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
    });
  });

  it('filters rows on allow_list columns: =, !=, AND, OR, parentheses', async () => {
    const codes = (filter: string, allow = 'code,region'): Promise<string> =>
      bench.render(
        '{assign_csv_table var=t csvtable_id=1 filter=$f allow_list=$a}{foreach from=$t item=r}{$r.0} {/foreach}',
        { vars: { f: filter, a: allow } },
      );
    expect(await codes('region="関東"')).toBe('13 14 ');
    expect(await codes("region = '関東' AND code != 13")).toBe('14 ');
    expect(await codes('region="近畿" or (region="関東" and code=14)')).toBe('14 27 ');
    expect(await codes('code <> "01" AND code<>"04" AND region!="関東" AND region!="近畿"')).toBe('23 34 40 ');
    expect(await codes('code="99"')).toBe('');
  });

  it('refuses a filter without allow_list, or on a column allow_list does not name, at its line', async () => {
    expect(await bench.error('\n{assign_csv_table var=t csvtable_id=1 filter=\'region="関東"\'}')).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
      line: 2,
    });
    const outside = await bench.error(
      '{assign_csv_table var=t csvtable_id=1 filter=\'name="東京都"\' allow_list="region"}',
    );
    expect(outside.code).toBe('E_BAD_ATTRIBUTE');
    expect(outside.message).toContain('"name" is not in allow_list');
    expect(
      (await bench.error('{assign_csv_table var=t csvtable_id=1 filter=\'city="x"\' allow_list="city"}')).message,
    ).toContain('no column "city"');
    expect(
      (
        await bench.error('{assign_csv_table var=t csvtable_id=1 filter=$f allow_list="region"}', {
          vars: { f: 'region="関東' },
        })
      ).message,
    ).toContain('never closed');
  });

  it('refuses a filter past its size cap before parsing it', async () => {
    const long = `region="${'x'.repeat(MAX_CHARS)}"`;
    expect(
      await bench.error('{assign_csv_table var=t csvtable_id=1 filter=$f allow_list="region"}', { vars: { f: long } }),
    ).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
  });

  it('gives an empty array for a table the site does not have', async () => {
    expect(await bench.render('{assign_csv_table var=t csvtable_id=77}{$t|@count}')).toBe('0');
  });
});

describe('the filter language', () => {
  const columns = ['code', 'name', 'region'];
  const allowed = new Set(columns);
  const refusal = (text: string): string => {
    try {
      compileFilter(text, allowed, columns);
    } catch (e) {
      expect(e).toBeInstanceOf(BridgeError);
      expect((e as BridgeError).code).toBe('E_BAD_ATTRIBUTE');
      return (e as BridgeError).message;
    }
    throw new Error(`accepted: ${text}`);
  };

  it('caps the text, the conditions and the nesting', () => {
    expect(refusal(`code="${'1'.repeat(MAX_CHARS - 6)}"`)).toContain(`longer than ${MAX_CHARS}`);
    expect(() => compileFilter(`code="${'1'.repeat(MAX_CHARS - 7)}"`, allowed, columns)).not.toThrow();
    const conditions = (n: number): string => Array.from({ length: n }, () => 'code=1').join(' OR ');
    expect(() => compileFilter(conditions(MAX_CONDITIONS), allowed, columns)).not.toThrow();
    expect(refusal(conditions(MAX_CONDITIONS + 1))).toContain(`more than ${MAX_CONDITIONS} conditions`);
    const nested = (n: number): string => '('.repeat(n) + 'code=1' + ')'.repeat(n);
    expect(() => compileFilter(nested(MAX_DEPTH), allowed, columns)).not.toThrow();
    expect(refusal(nested(MAX_DEPTH + 1))).toContain(`deeper than ${MAX_DEPTH}`);
  });

  it('says where the text breaks the grammar', () => {
    expect(refusal('code=')).toContain('character 6: expected a quoted string');
    expect(refusal('code="1" name="x"')).toContain('character 10: unexpected "name"');
    expect(refusal('(code="1"')).toContain('expected ")"');
    expect(refusal('code ~ 1')).toContain('unexpected "~"');
    expect(refusal('AND code=1')).toContain('expected a column name');
  });

  it('reads escaped quotes and compares cells as text', () => {
    const test = compileFilter('name="a \\"b\\"" OR code=013', allowed, columns);
    expect(test(['1', 'a "b"', ''])).toBe(true);
    expect(test(['13', '', ''])).toBe(false);
    expect(test(['013', '', ''])).toBe(true);
  });
});

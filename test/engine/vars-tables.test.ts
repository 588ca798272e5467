/**
 * The vars' lists of rows cross an in-process render as tables (D281) and a worker's as the
 * tables' JSON text (D296): the same templates over the same data give the same output as the
 * vars sent as they are (which an array that spells the mark forces: the encoder gives up),
 * through every use of a row (reads, foreach, writes, copies, sorts, counts, json_encode of the
 * list, of a record holding it and of one row).
 */
import { describe, expect, it } from 'vitest';
import { testEngine } from '../support/engine.js';
import { encodeTables, TABLE_MARK } from '../../src/protocol/tables.js';

const inProcess = testEngine({ workers: 0 });
const worker = testEngine({ workers: 1 });

const items = Array.from({ length: 5 }, (_, i) => ({
  id: 10 - i,
  title: `タイトル ${i} <b>&`,
  url: `https://example.jp/${i}/`,
  tags: ['a', 'b', 'c'].slice(0, i % 3),
  author: { id: i % 2, name: `n${i}` },
  0: `zero ${i}`,
  price: i * 1.5,
  flag: i % 2 === 0,
}));
const vars = {
  api: { status: 'ok', items },
  items,
  pairs: [
    { k: 'b', v: 2 },
    { k: 'a', v: 1 },
  ],
};

const TEMPLATES: [string, string][] = [
  [
    'reads',
    '{foreach from=$items item=it}{$it.id}:{$it.title|escape}:{$it.author.name}:{$it[0]}:{$it.tags|@join:","}:{$it.missing}|{/foreach}',
  ],
  [
    'keys and counts',
    '{foreach from=$items[1] key=k item=v}{$k}={if is_array($v)}[{$v|@count}]{else}{$v}{/if};{/foreach}{$items[1]|@count}',
  ],
  ['json_encode of a record holding the list', '{$api|@json_encode}'],
  ['json_encode of the list and of a row', '{$items|@json_encode}{$items[2]|@json_encode}'],
  ['json_encode after a read', '{$api.items[0].author.name}{$api|@json_encode}'],
  [
    'a write to a row, then the original',
    '{assign var=r value=$items[0]}{$r.title}{assign var=items value=$pairs}{$r.id}',
  ],
  [
    'a sort of the rows',
    '{foreach from=$pairs|@sort item=p}{$p.k}{/foreach}{foreach from=$pairs item=p}{$p.k}{/foreach}',
  ],
  [
    'isset and empty',
    '{if isset($items[0].title)}t{/if}{if isset($items[0].nope)}n{/if}{if !$items[1].tags}e{/if}{if in_array("a", $items[1].tags)}i{/if}',
  ],
  ['in_array and array_keys', '{$items[0]|@array_keys|@implode:","}'],
];

describe('vars as tables', () => {
  it('the data of these cases crosses as tables', () => {
    expect(encodeTables(vars)).not.toBeNull();
  });

  it('rows with Dates (JSON text cannot carry them) cross a worker as tables too', async () => {
    const dated = { rows: items.map((it, i) => ({ id: it.id, at: new Date(1_700_000_000_000 + i * 86_400_000) })) };
    const template = '{foreach from=$rows item=r}{$r.id}@{$r.at|date_format:"%Y-%m-%d"};{/foreach}{$rows|@json_encode}';
    const a = await inProcess.render(template, { vars: dated });
    const b = await worker.render(template, { vars: dated });
    expect(a.output).toBe(b.output);
    expect(a.output).toContain('10@2023-11-15;');
  });

  it('the same data with an array that spells the mark crosses as it is', () => {
    expect(encodeTables({ ...vars, spelled: [TABLE_MARK] })).toBeNull();
  });

  it.each(TEMPLATES)('%s: the same output as tables, as JSON tables and as it is', async (_, template) => {
    const plain = await inProcess.render(template, { vars: { ...vars, spelled: [TABLE_MARK] } });
    const a = await inProcess.render(template, { vars });
    const b = await worker.render(template, { vars });
    expect(a.output).toBe(plain.output);
    expect(b.output).toBe(plain.output);
    expect(a.output.length).toBeGreaterThan(0);
  });
});

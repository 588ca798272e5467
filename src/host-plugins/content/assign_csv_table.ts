/**
 * {assign_csv_table}: a master table of the render's tenant, as rows (lists of cells) or, with
 * get_key_val, keyed by one or more columns; `filter` (csv-filter.ts) keeps matching rows, on the
 * columns allow_list names. A read (D271).
 */
import { implementRead } from '../read-plugin.js';
import { wait } from '../../host-api/now-or-later.js';
import type { CsvTable } from '../../host-api/adapters/content.js';
import { BridgeError } from '../../host-api/errors.js';
import { PhpArray, type Value } from '../../value/value.js';
import { langAttr, positiveId } from '../data-attrs.js';
import { compileFilter } from './csv-filter.js';
import declaration from '../../plugins/host-content/assign_csv_table.js';

const MAX_KEY_DEPTH = 4;

function bad(why: string): never {
  throw new BridgeError('E_BAD_ATTRIBUTE', `{assign_csv_table} ${why}`);
}

/** A column index attribute checked against the table's columns. */
function columnIndex(attr: string, v: Value, table: CsvTable): number {
  const n = v === 0 || v === '0' ? 0 : positiveId(v);
  if (n === null) bad(`${attr}= must be a column index (0, 1, ...)`);
  if (n >= table.columns.length)
    bad(`${attr}=${n}: table ${table.id} has ${table.columns.length} columns (0..${table.columns.length - 1})`);
  return n;
}

function keyIndexes(v: Value, table: CsvTable): number[] {
  if (v === undefined || v === null || v === '') return [0];
  if (!(v instanceof PhpArray)) return [columnIndex('key_idx', v, table)];
  const list = v.values();
  if (list.length === 0 || list.length > MAX_KEY_DEPTH)
    bad(`key_idx= as an array holds 1 to ${MAX_KEY_DEPTH} column indexes`);
  return list.map((x) => columnIndex('key_idx', x, table));
}

function keyed(
  rows: readonly (readonly string[])[],
  keys: readonly number[],
  valueIdx: number | null,
  multiple: boolean,
): PhpArray {
  const out = PhpArray.empty();
  for (const row of rows) {
    const value: Value = valueIdx === null ? PhpArray.fromList([...row]) : (row[valueIdx] ?? '');
    let node = out;
    for (const k of keys.slice(0, -1)) {
      const cell = row[k] ?? '';
      const child = node.get(cell);
      const next = child instanceof PhpArray ? child : PhpArray.empty();
      node.set(cell, next);
      node = next;
    }
    const last = row[keys[keys.length - 1]!] ?? '';
    if (!multiple) node.set(last, value);
    else {
      const list = node.get(last);
      const values = list instanceof PhpArray ? list : PhpArray.empty();
      values.push(value);
      node.set(last, values);
    }
  }
  return out;
}

export const assignCsvTable = implementRead(declaration, function* (attrs, call, masters) {
  const lang = langAttr('assign_csv_table', attrs.lang, call);
  const filter = typeof attrs.filter === 'string' && attrs.filter.trim() !== '' ? attrs.filter : null;
  const allowList =
    typeof attrs.allow_list === 'string'
      ? attrs.allow_list
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
      : [];
  if (filter !== null && allowList.length === 0) bad('filter= needs allow_list= (the columns the filter may use)');
  const id = Number(attrs.csvtable_id);
  let table = yield* wait(masters.csvTable(id, lang));
  if (table && table.rows.length === 0 && lang !== call.render.lang)
    table = (yield* wait(masters.csvTable(id, call.render.lang))) ?? table;
  const name = String(attrs.var);
  if (!table) return { assign: [[name, PhpArray.empty()]] };
  const rows =
    filter === null ? table.rows : table.rows.filter(compileFilter(filter, new Set(allowList), table.columns));
  if (attrs.get_key_val !== true)
    return { assign: [[name, PhpArray.fromList(rows.map((r) => PhpArray.fromList([...r])))]] };
  const valueIdx =
    attrs.value_idx === undefined || attrs.value_idx === null ? null : columnIndex('value_idx', attrs.value_idx, table);
  return { assign: [[name, keyed(rows, keyIndexes(attrs.key_idx, table), valueIdx, attrs.multiple === true)]] };
});

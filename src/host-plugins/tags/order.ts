/**
 * The `order` attribute of {assign_tag_list}: which columns, which way. Only the columns of the
 * tag item may be named (the sorting happens here, on the items, never in a query the adapter
 * builds from text), each `asc` (default) or `desc`, at most MAX_KEYS of them (docs/decisions.md D59).
 */
import { PhpArray, type Value } from '../../value/value.js';
import { BridgeError } from '../../host-api/errors.js';

const ORDER_COLUMNS = ['tag_id', 'tag_nm', 'tag_category_id', 'open_contents_cnt', 'order_no', 'inst_ymdhi'] as const;
type OrderColumn = (typeof ORDER_COLUMNS)[number];
export interface OrderKey {
  column: OrderColumn;
  descending: boolean;
}

const MAX_KEYS = 5;
const KEY = /^\s*([a-z_]+)\s*(?::\s*([A-Za-z]+)\s*)?$/;

function bad(why: string): never {
  throw new BridgeError(
    'E_BAD_ATTRIBUTE',
    `{assign_tag_list} order= ${why} (columns: ${ORDER_COLUMNS.join(', ')}; directions: asc, desc)`,
  );
}

function key(column: string, direction: string | undefined): OrderKey {
  if (!(ORDER_COLUMNS as readonly string[]).includes(column))
    bad(`names ${JSON.stringify(column.slice(0, 40))}, which is not a column it can sort by`);
  const dir = (direction ?? 'asc').toLowerCase();
  if (dir !== 'asc' && dir !== 'desc') bad(`has the direction ${JSON.stringify(direction!.slice(0, 20))}`);
  return { column: column as OrderColumn, descending: dir === 'desc' };
}

function parsed(text: string): OrderKey {
  const m = KEY.exec(text);
  if (!m) bad(`has ${JSON.stringify(text.slice(0, 40))}, which is not <column> or <column>:<direction>`);
  return key(m[1]!, m[2]);
}

/** The keys `order` names: a string (comma-separated keys) or an array of key strings or of column => direction. */
export function parseOrder(order: Value): OrderKey[] {
  if (order === undefined || order === null || order === '') return [];
  let keys: OrderKey[];
  if (typeof order === 'string') keys = order.split(',').map(parsed);
  else if (order instanceof PhpArray) {
    keys = order.entries().map(([k, v]) => {
      if (typeof k === 'number' && typeof v === 'string') return parsed(v);
      if (typeof k === 'string' && typeof v === 'string') return key(k, v);
      return bad('must hold strings');
    });
  } else bad('must be a string or an array');
  if (keys.length > MAX_KEYS) bad(`names more than ${MAX_KEYS} keys`);
  return keys;
}

/** Compares two items by `keys`, then by tag_id ascending, so that the order is total. */
export function comparator(keys: readonly OrderKey[]): (a: PhpArray, b: PhpArray) => number {
  const all = [...keys, { column: 'tag_id', descending: false } as const];
  return (a, b) => {
    for (const k of all) {
      const x = a.get(k.column) as string | number;
      const y = b.get(k.column) as string | number;
      if (x !== y) return (x < y ? -1 : 1) * (k.descending ? -1 : 1);
    }
    return 0;
  };
}

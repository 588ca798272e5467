/**
 * The content reads of a Topics list on PostgreSQL in 1 statement instead of 8 (D259, D366,
 * D367). What a statement costs the server is mostly the round trip, not its rows: the pool's
 * checkout, the extended protocol's messages, a write that wakes the backend, the answer parsed;
 * ~140 µs of CPU each on this loaded machine, where the 8 statements' rows are a few hundred small
 * values. So each read here asks PostgreSQL for one row of JSON values (`json_agg`,
 * `json_build_array`) that the driver hands to JSON.parse:
 *
 * - `topics(ids)`: the contents with their texts, extended values and counters, one aggregate per
 *   table (were 4 statements);
 * - `group`, `columns` and `categories` of one group and a page of its contents (`openPage`: the
 *   count, the page's ids and the page's contents as `topics(ids)` reads them) asked for together
 *   (in one run of code, as topicList asks for the four): one statement with a sub-select per
 *   part asked for (were 3, and 2 for the page and its contents), started in a microtask once
 *   they are asked. A part asked for later starts a statement of its own, so a read never takes
 *   an answer older than the call, and calls of two renders never share one (each render's
 *   statements end with it, D183).
 *
 * Read back exactly as the statements of content.ts give them: JSON numbers for BIGINT and
 * INTEGER columns (JSON.parse rounds a BIGINT past 2^53 as `Number` does, which is how
 * postgres.ts reads one), JSON strings for TEXT (escaped by PostgreSQL, unescaped by JSON.parse),
 * null for NULL. Texts come in byte order of their language (`COLLATE "C"`, SQLite's BINARY),
 * the order SQLite reads them in through its primary key, so the first language (the last fallback of inLang) is
 * the same on both backends; values and counters by column and index.
 */
import type {
  ExtColumn,
  ExtColumnType,
  ExtValue,
  OpenFilter,
  OpenPage,
  Topic,
  TopicText,
  TopicsCategory,
  TopicsGroup,
} from '../../index.js';
import type { SqlRunner, SqlValue } from '../db/database.js';
import { MAX_RENDER_ROWS, statementSignal, tooManyRows } from '../db/render-statements.js';
import { parseNames } from './content-names.js';
import { openWhere } from './content-open.js';

type Num = number;
type TopicTuple = [
  id: Num,
  groupId: Num,
  openFlg: Num,
  openFrom: Num | null,
  openUntil: Num | null,
  ymd: string,
  categoryId: Num | null,
  slug: string | null,
  orderNo: Num,
  instAt: Num,
  updateAt: Num,
];
interface TopicsAnswer {
  topics: TopicTuple[] | null;
  texts: [topicId: Num, lang: string, subject: string, contents: string][] | null;
  ext_values: [topicId: Num, columnId: Num, index: Num, value: string | null][] | null;
  counters: [topicId: Num, columnId: Num, index: Num, value: Num][] | null;
}

/**
 * One flat aggregate per table, not one per content: PostgreSQL plans and runs it in about half
 * the time of sub-selects correlated to each content (0.14 + 0.17 against 0.30 + 0.27 ms, EXPLAIN
 * ANALYZE of a page of 10), and the rows are put together here as content.ts does. `tenant` is
 * the tenant's placeholder, `ids` what follows the id column (`= ANY (...)`, `IN (...)`).
 */
const aggregate = (fields: string, table: string, tenant: string, idColumn: string, ids: string, order?: string) =>
  `(SELECT json_agg(json_build_array(${fields})${order ? ` ORDER BY ${order}` : ''}) FROM ${table} WHERE tenant = ${tenant} AND ${idColumn} ${ids})`;
/** The four aggregates of TopicsAnswer, for the contents whose id is `ids`. */
const topicsAggregates = (tenant: string, ids: string): string => `
  ${aggregate('id, group_id, open_flg, open_from, open_until, ymd, category_id, slug, order_no, inst_at, update_at', 'topics', tenant, 'id', ids)} AS topics,
  ${aggregate('topic_id, lang, subject, contents', 'topic_texts', tenant, 'topic_id', ids, 'topic_id, lang COLLATE "C"')} AS texts,
  ${aggregate('topic_id, column_id, idx, value', 'topic_ext_values', tenant, 'topic_id', ids, 'topic_id, column_id, idx')} AS ext_values,
  ${aggregate('topic_id, column_id, idx, value', 'topic_counters', tenant, 'topic_id', ids, 'topic_id, column_id, idx')} AS counters`;
const TOPICS_SQL = `SELECT ${topicsAggregates('$1', '= ANY ($2::bigint[])')}`;

/**
 * Every statement here is one of a few texts (the parts asked, a page or not, a category or not;
 * ids go in one array parameter), so each is kept prepared on the pooled connections (D368).
 */
const PREPARED = { prepared: true } as const;

/** A BIGINT array literal of the ids that can be a BIGINT; others match no content. */
function bigintArray(ids: readonly number[]): string {
  const fit = ids.filter((id) => Number.isInteger(id) && Math.abs(id) < 2 ** 63);
  return `{${fit.map((id) => (Number.isSafeInteger(id) ? String(id) : BigInt(id).toString())).join(',')}}`;
}

/** Where a page is asked: its filter, and `limit` contents from the `offset`-th. */
interface PageAsk {
  filter: OpenFilter;
  offset: number;
  limit: number;
}

/** What a page adds to a batch's statement: its CTE, and its columns (the count, the ids, TopicsAnswer). */
function pageSql(tenant: string, groupId: number, ask: PageAsk): { cte: Sql; columns: Sql } {
  const [where, params] = openWhere(tenant, groupId, ask.filter);
  const order = 'ymd COLLATE "C" DESC, id DESC';
  return {
    cte: [
      `page AS (SELECT id, ymd FROM topics WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?)`,
      [...params, ask.limit, ask.offset],
    ],
    columns: [
      `(SELECT COUNT(*) FROM topics WHERE ${where}) AS total, (SELECT json_agg(id ORDER BY ${order}) FROM page) AS ids, ${topicsAggregates('?', 'IN (SELECT id FROM page)')}`,
      [...params, tenant, tenant, tenant, tenant],
    ],
  };
}

/** The page of a batch's answer (see pageSql), the row cap of a render checked (D183). */
function pageOf(
  r: TopicsAnswer & { total: number | string; ids: number[] | null },
  signal: AbortSignal | undefined,
): OpenPage {
  const ids = r.ids ?? [];
  if (signal && ids.length > MAX_RENDER_ROWS) throw tooManyRows();
  return { total: Number(r.total), ids, topics: topicsOf(r, signal) };
}

/** The contents of these ids, whole, in one statement. */
export async function topicsInOneStatement(db: SqlRunner, tenant: string, ids: readonly number[]): Promise<Topic[]> {
  return topicsOf((await db.get<TopicsAnswer>(TOPICS_SQL, [tenant, bigintArray(ids)], PREPARED))!, statementSignal());
}

/** The contents of a TopicsAnswer, put together as content.ts's statements give them. */
function topicsOf(r: TopicsAnswer, signal: AbortSignal | undefined): Topic[] {
  const lists = [r.topics ?? [], r.texts ?? [], r.ext_values ?? [], r.counters ?? []] as const;
  // What one statement may give a render (D183), as when each table was a statement of its own.
  if (signal && lists.some((l) => l.length > MAX_RENDER_ROWS)) throw tooManyRows();
  const [topics, texts, values, counters] = lists;
  const byTopic = new Map<number, { texts: Record<string, TopicText>; ext: ExtValue[] }>(
    topics.map((t) => [t[0], { texts: {}, ext: [] }]),
  );
  for (const [topicId, lang, subject, contents] of texts) {
    const at = byTopic.get(topicId);
    if (at) at.texts[lang] = { subject, contents };
  }
  for (const [topicId, columnId, index, value] of [...values, ...counters])
    byTopic.get(topicId)?.ext.push({ columnId, index, value });
  return topics.map((t): Topic => ({
    id: t[0],
    groupId: t[1],
    openFlg: t[2] === 1,
    openFrom: t[3],
    openUntil: t[4],
    ymd: t[5],
    categoryId: t[6],
    slug: t[7],
    orderNo: t[8],
    instAt: t[9],
    updateAt: t[10],
    ...byTopic.get(t[0])!,
  }));
}

/** What groupView asks of a group: each part a sub-select giving one JSON value. */
interface GroupParts {
  group: TopicsGroup | null;
  columns: ExtColumn[];
  categories: TopicsCategory[];
}
type PartName = keyof GroupParts;

/** Each part a sub-select of one JSON value, of the tenant and the group (two parameters each). */
const PART_SQL: Record<PartName, string> = {
  group: 'SELECT json_build_array(id, names, descriptions) FROM topics_groups WHERE tenant = ? AND id = ?',
  columns:
    'SELECT json_agg(json_build_array(id, group_id, slug, type, repeat_cnt, order_no) ORDER BY order_no, id) FROM topics_ext_columns WHERE tenant = ? AND group_id = ?',
  categories:
    'SELECT json_agg(json_build_array(id, group_id, parent_id, slug, names, order_no, open_flg) ORDER BY order_no, id) FROM topics_categories WHERE tenant = ? AND group_id = ?',
};

const PART_OF: { [P in PartName]: (v: unknown) => GroupParts[P] } = {
  group: (v) => {
    if (v === null) return null;
    const [id, names, descriptions] = v as [Num, string, string];
    return { id, names: parseNames(names), descriptions: parseNames(descriptions) };
  },
  columns: (v) =>
    ((v ?? []) as [Num, Num, string, string, Num, Num][]).map(([id, groupId, slug, type, repeat, orderNo]) => ({
      id,
      groupId,
      slug,
      type: type as ExtColumnType,
      repeat,
      orderNo,
    })),
  categories: (v) =>
    ((v ?? []) as [Num, Num, Num | null, string | null, string, Num, Num][]).map(
      ([id, groupId, parentId, slug, names, orderNo, openFlg]) => ({
        id,
        groupId,
        parentId,
        slug,
        names: parseNames(names),
        orderNo,
        openFlg: openFlg === 1,
      }),
    ),
};

/** SQL with `?` placeholders, and their values in order. */
type Sql = [text: string, params: SqlValue[]];

interface Batch {
  signal: AbortSignal | undefined;
  groupId: number;
  asked: Set<PartName>;
  /** At most one page a batch: a second page asked with it gets a batch of its own. */
  page: PageAsk | undefined;
  answer: Promise<Record<string, unknown>>;
}

/** The group reads of content.ts on PostgreSQL: its three parts, and openPage. */
export interface GroupReader {
  part<P extends PartName>(groupId: number, part: P): Promise<GroupParts[P]>;
  page(groupId: number, filter: OpenFilter, offset: number, limit: number): Promise<OpenPage>;
}

/**
 * group/columns/categories of a group and a page of its contents: what one render asks of a group
 * before the statement for it has started (a microtask after the first ask) shares that
 * statement. A list asks all four at once (topicList, D367): one statement.
 */
export function groupReader(db: SqlRunner, tenant: string): GroupReader {
  let open: Batch[] = [];

  function batchFor(groupId: number, forPage: boolean): Batch {
    const signal = statementSignal();
    const found = open.find((b) => b.groupId === groupId && b.signal === signal && !(forPage && b.page));
    if (found) return found;
    const asked = new Set<PartName>();
    // The statement starts once the calls made with this one have said what they ask for; a
    // promise's reaction runs in the async context of the call that made it (its render's signal).
    const answer = Promise.resolve().then(async () => {
      open = open.filter((b) => b !== batch);
      const page = batch.page && pageSql(tenant, groupId, batch.page);
      const pieces: Sql[] = [...asked].map((p) => [`(${PART_SQL[p]}) AS ${p}`, [tenant, groupId]]);
      if (page) pieces.push(page.columns);
      const [text, params] = joinSql(page ? `WITH ${page.cte[0]} SELECT ` : 'SELECT ', page?.cte[1] ?? [], pieces);
      return (await db.get<Record<string, unknown>>(text, params, PREPARED))!;
    });
    const batch: Batch = { signal, groupId, asked, page: undefined, answer };
    open.push(batch);
    return batch;
  }

  return {
    async part(groupId, part) {
      const batch = batchFor(groupId, false);
      batch.asked.add(part);
      const value = (await batch.answer)[part] ?? null;
      if (batch.signal && Array.isArray(value) && value.length > MAX_RENDER_ROWS) throw tooManyRows();
      return PART_OF[part](value);
    },
    async page(groupId, filter, offset, limit) {
      const batch = batchFor(groupId, true);
      batch.page = { filter, offset, limit };
      const r = (await batch.answer) as unknown as TopicsAnswer & { total: number | string; ids: number[] | null };
      return pageOf(r, batch.signal);
    },
  };
}

/** `head`, then the pieces' texts joined by commas; the parameters in the order of their `?`s. */
function joinSql(head: string, headParams: SqlValue[], pieces: Sql[]): Sql {
  return [head + pieces.map(([t]) => t).join(', '), [...headParams, ...pieces.flatMap(([, p]) => p)]];
}

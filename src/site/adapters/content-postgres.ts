/**
 * The content reads of a Topics list on PostgreSQL in 2 statements instead of 8 (D259, D370). What a
 * statement costs the server is mostly the round trip, not its rows: the pool's checkout, the
 * extended protocol's messages, a write that wakes the backend, the answer parsed; ~140 µs of
 * CPU each on this loaded machine, where the 8 statements' rows are a few hundred small values.
 * So each read here asks PostgreSQL for one row of JSON values (`json_agg`, `json_build_array`)
 * that the driver hands to JSON.parse:
 *
 * - `topics(ids)`: the contents with their texts, extended values and counters, one aggregate per
 *   table (were 4 statements);
 * - `openPage`: the page's count and ids, and its contents as `topics(ids)` reads them, so a list
 *   needs no statement of its own for its contents (were 2 statements, then 5 with the contents');
 * - `group`, `columns` and `categories` of one group asked for together (in one run of code, as
 *   groupView's Promise.all asks for the three): one statement with a sub-select per part asked
 *   for (were 3), started in a microtask once they are asked. A part asked for later starts a
 *   statement of its own, so a read never takes an answer older than the call, and calls of two
 *   renders never share one (each render's statements end with it, D183).
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
import type { SqlRunner } from '../db/database.js';
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

/** A BIGINT array literal of the ids that can be a BIGINT; others match no content. */
function bigintArray(ids: readonly number[]): string {
  const fit = ids.filter((id) => Number.isInteger(id) && Math.abs(id) < 2 ** 63);
  return `{${fit.map((id) => (Number.isSafeInteger(id) ? String(id) : BigInt(id).toString())).join(',')}}`;
}

/**
 * A page of a group's open contents and the contents themselves in one statement, whatever the
 * page (SQLite's needs a second for an empty page, and a third for the contents): the count, the
 * page's ids, newest first, the date in byte order ("C", as the index topics_open_by_date has
 * it), and TopicsAnswer's aggregates over those ids (D370). The page is a CTE, which PostgreSQL
 * runs once since it is read more than once.
 */
export async function openPageInOneStatement(
  db: SqlRunner,
  tenant: string,
  groupId: number,
  filter: OpenFilter,
  offset: number,
  limit: number,
): Promise<OpenPage> {
  const [where, params] = openWhere(tenant, groupId, filter);
  const order = 'ymd COLLATE "C" DESC, id DESC';
  const r = (await db.get<TopicsAnswer & { total: number | string; ids: number[] | null }>(
    `WITH page AS (SELECT id, ymd FROM topics WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?)
     SELECT (SELECT COUNT(*) FROM topics WHERE ${where}) AS total,
       (SELECT json_agg(id ORDER BY ${order}) FROM page) AS ids,
       ${topicsAggregates('?', 'IN (SELECT id FROM page)')}`,
    [...params, limit, offset, ...params, tenant, tenant, tenant, tenant],
  ))!;
  const ids = r.ids ?? [];
  // What one statement may give a render (D183), as the SQLite face's page statement.
  if (statementSignal() && ids.length > MAX_RENDER_ROWS) throw tooManyRows();
  return { total: Number(r.total), ids, topics: topicsOf(r) };
}

/** The contents of these ids, whole, in one statement. */
export async function topicsInOneStatement(db: SqlRunner, tenant: string, ids: readonly number[]): Promise<Topic[]> {
  return topicsOf((await db.get<TopicsAnswer>(TOPICS_SQL, [tenant, bigintArray(ids)]))!);
}

/** The contents of a TopicsAnswer, put together as content.ts's statements give them. */
function topicsOf(r: TopicsAnswer): Topic[] {
  const lists = [r.topics ?? [], r.texts ?? [], r.ext_values ?? [], r.counters ?? []] as const;
  // What one statement may give a render (D183), as when each table was a statement of its own.
  if (statementSignal() && lists.some((l) => l.length > MAX_RENDER_ROWS)) throw tooManyRows();
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

const PART_SQL: Record<PartName, string> = {
  group: 'SELECT json_build_array(id, names, descriptions) FROM topics_groups WHERE tenant = $1 AND id = $2',
  columns:
    'SELECT json_agg(json_build_array(id, group_id, slug, type, repeat_cnt, order_no) ORDER BY order_no, id) FROM topics_ext_columns WHERE tenant = $1 AND group_id = $2',
  categories:
    'SELECT json_agg(json_build_array(id, group_id, parent_id, slug, names, order_no, open_flg) ORDER BY order_no, id) FROM topics_categories WHERE tenant = $1 AND group_id = $2',
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

interface Batch {
  signal: AbortSignal | undefined;
  groupId: number;
  asked: Set<PartName>;
  answer: Promise<Partial<Record<PartName, unknown>>>;
}

type GroupPartReader = <P extends PartName>(groupId: number, part: P) => Promise<GroupParts[P]>;

/**
 * group/columns/categories of a group: the parts asked for by one render before its statement
 * for that group has started (a microtask after the first of them) share that statement.
 */
export function groupPartsReader(db: SqlRunner, tenant: string): GroupPartReader {
  let open: Batch[] = [];

  function batchFor(groupId: number): Batch {
    const signal = statementSignal();
    const found = open.find((b) => b.groupId === groupId && b.signal === signal);
    if (found) return found;
    const asked = new Set<PartName>();
    // The statement starts once the calls made with this one have said what they ask for; a
    // promise's reaction runs in the async context of the call that made it (its render's signal).
    const answer = Promise.resolve().then(async () => {
      open = open.filter((b) => b !== batch);
      const parts = [...asked];
      const sql = `SELECT ${parts.map((p) => `(${PART_SQL[p]}) AS ${p}`).join(', ')}`;
      return (await db.get<Partial<Record<PartName, unknown>>>(sql, [tenant, groupId]))!;
    });
    const batch: Batch = { signal, groupId, asked, answer };
    open.push(batch);
    return batch;
  }

  return async (groupId, part) => {
    const batch = batchFor(groupId);
    batch.asked.add(part);
    const value = (await batch.answer)[part] ?? null;
    if (batch.signal && Array.isArray(value) && value.length > MAX_RENDER_ROWS) throw tooManyRows();
    return PART_OF[part](value);
  };
}

/**
 * The content family's adapters of a local site (HostAdapters.content, .masters, .childSites)
 * over the tables of schema/content.ts. They answer stored data only, for ctx.tenant; the
 * rules (open checks, language fallback, paging, counters' columns) are the plugins'. The reads
 * are written once in steps (src/host-api/now-or-later.ts): on SQLite they also answer at once.
 */
import {
  laterFace,
  nowFace,
  wait,
  type ChildSite,
  type ChildSitesAdapter,
  type CsvTable,
  type ContentAdapter,
  type CounterTarget,
  type ExtColumn,
  type ExtColumnType,
  type ExtValue,
  type HostAdapters,
  type MastersAdapter,
  type NowOrLater,
  type OpenFilter,
  type OpenPage,
  type Steps,
  type Topic,
  type TopicState,
  type TopicText,
  type TopicsCategory,
  type TopicsGroup,
} from '../../index.js';
import type { SqlReads, SqlRunner, SqlValue } from '../db/database.js';
import type { SiteContext } from '../site-context.js';
import { parseNames } from './content-names.js';
import { groupReader, topicsInOneStatement } from './content-postgres.js';
import { openWhere } from './content-open.js';

/** Ids per `IN (...)`: well under both backends' parameter limits. */
const IDS_PER_QUERY = 500;

interface StateRow {
  id: number;
  group_id: number;
  open_flg: number;
  open_from: number | null;
  open_until: number | null;
  ymd: string;
  category_id: number | null;
}
interface TopicRow extends StateRow {
  slug: string | null;
  order_no: number;
  inst_at: number;
  update_at: number;
}

const STATE_COLUMNS = 'id, group_id, open_flg, open_from, open_until, ymd, category_id';

function stateOf(r: StateRow): TopicState {
  return {
    id: r.id,
    groupId: r.group_id,
    openFlg: r.open_flg === 1,
    openFrom: r.open_from,
    openUntil: r.open_until,
    ymd: r.ymd,
    categoryId: r.category_id,
  };
}

export { parseNames } from './content-names.js';

/** `(?, ?, ?)` for `n` values. */
const marks = (n: number): string => `(${Array.from({ length: n }, () => '?').join(', ')})`;

/** Runs `query` over `ids` in chunks and joins the rows. */
async function inChunks<K, T>(ids: readonly K[], query: (chunk: readonly K[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) out.push(...(await query(ids.slice(i, i + IDS_PER_QUERY))));
  return out;
}

/** `inChunks` in steps, for the reads written once for both faces. */
function* chunked<K, T>(ids: readonly K[], query: (chunk: readonly K[]) => NowOrLater<T[]>): Steps<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY)
    out.push(...(yield* wait(query(ids.slice(i, i + IDS_PER_QUERY)))));
  return out;
}

/**
 * The content adapter's reads for `tenant`, written once in steps over either face of the
 * database: the async SqlRunner (every backend) or SQLite's reads answered at once (`db.now`),
 * which make the adapter's now face (ContentAdapter.now, D268).
 */
function contentReads(tenant: string, db: SqlReads) {
  return {
    *group(groupId: number): Steps<TopicsGroup | null> {
      const r = yield* wait(
        db.get<{ id: number; names: string; descriptions: string }>(
          'SELECT id, names, descriptions FROM topics_groups WHERE tenant = ? AND id = ?',
          [tenant, groupId],
        ),
      );
      return r ? { id: r.id, names: parseNames(r.names), descriptions: parseNames(r.descriptions) } : null;
    },
    *groupTopics(groupId: number): Steps<TopicState[]> {
      const rows = yield* wait(
        db.all<StateRow>(`SELECT ${STATE_COLUMNS} FROM topics WHERE tenant = ? AND group_id = ?`, [tenant, groupId]),
      );
      return rows.map(stateOf);
    },
    *topics(ids: readonly number[]): Steps<Topic[]> {
      const rows = yield* chunked(ids, (c) =>
        db.all<TopicRow>(
          `SELECT ${STATE_COLUMNS}, slug, order_no, inst_at, update_at FROM topics WHERE tenant = ? AND id IN ${marks(c.length)}`,
          [tenant, ...c],
        ),
      );
      if (rows.length === 0) return [];
      const found = rows.map((r) => r.id);
      const texts = yield* chunked(found, (c) =>
        db.all<{ topic_id: number; lang: string; subject: string; contents: string }>(
          `SELECT topic_id, lang, subject, contents FROM topic_texts WHERE tenant = ? AND topic_id IN ${marks(c.length)}`,
          [tenant, ...c],
        ),
      );
      const values = yield* chunked(found, (c) =>
        db.all<{ topic_id: number; column_id: number; idx: number; value: string | number | null }>(
          `SELECT topic_id, column_id, idx, value FROM topic_ext_values WHERE tenant = ? AND topic_id IN ${marks(c.length)}`,
          [tenant, ...c],
        ),
      );
      const counters = yield* chunked(found, (c) =>
        db.all<{ topic_id: number; column_id: number; idx: number; value: number }>(
          `SELECT topic_id, column_id, idx, value FROM topic_counters WHERE tenant = ? AND topic_id IN ${marks(c.length)}`,
          [tenant, ...c],
        ),
      );
      const byTopic = new Map<number, { texts: Record<string, TopicText>; ext: ExtValue[] }>(
        found.map((id) => [id, { texts: {}, ext: [] }]),
      );
      for (const t of texts) byTopic.get(t.topic_id)!.texts[t.lang] = { subject: t.subject, contents: t.contents };
      for (const v of [...values, ...counters])
        byTopic.get(v.topic_id)!.ext.push({ columnId: v.column_id, index: v.idx, value: v.value });
      return rows.map((r) => ({
        ...stateOf(r),
        slug: r.slug,
        orderNo: r.order_no,
        instAt: r.inst_at,
        updateAt: r.update_at,
        ...byTopic.get(r.id)!,
      }));
    },
    *openPage(groupId: number, filter: OpenFilter, offset: number, limit: number): Steps<OpenPage> {
      const [where, params] = openWhere(tenant, groupId, filter);
      const count = `SELECT COUNT(*) FROM topics WHERE ${where}`;
      // The count rides on each row of the page (a sub-select SQLite runs once): one statement,
      // and a second only when the page is empty (past the last, or a group with none open).
      const rows = yield* wait(
        db.all<{ id: number; total: number }>(
          `SELECT id, (${count}) AS total FROM topics WHERE ${where} ORDER BY ymd DESC, id DESC LIMIT ? OFFSET ?`,
          [...params, ...params, limit, offset],
        ),
      );
      if (rows.length > 0) return { total: Number(rows[0]!.total), ids: rows.map((r) => r.id) };
      const n = yield* wait(db.get<{ total: number }>(`SELECT (${count}) AS total`, params));
      return { total: Number(n?.total ?? 0), ids: [] };
    },
    *findTopicId(groupId: number, ref: { id: number } | { slug: string }): Steps<number | null> {
      const [column, value] = 'id' in ref ? ['id', ref.id] : ['slug', ref.slug];
      const r = yield* wait(
        db.get<{ id: number }>(`SELECT id FROM topics WHERE tenant = ? AND group_id = ? AND ${column} = ?`, [
          tenant,
          groupId,
          value,
        ]),
      );
      return r?.id ?? null;
    },
    *columns(groupId: number): Steps<ExtColumn[]> {
      const rows = yield* wait(
        db.all<{
          id: number;
          group_id: number;
          slug: string;
          type: string;
          repeat_cnt: number;
          order_no: number;
        }>(
          'SELECT id, group_id, slug, type, repeat_cnt, order_no FROM topics_ext_columns WHERE tenant = ? AND group_id = ? ORDER BY order_no, id',
          [tenant, groupId],
        ),
      );
      return rows.map((r): ExtColumn => ({
        id: r.id,
        groupId: r.group_id,
        slug: r.slug,
        type: r.type as ExtColumnType,
        repeat: r.repeat_cnt,
        orderNo: r.order_no,
      }));
    },
    *categories(groupId: number): Steps<TopicsCategory[]> {
      const rows = yield* wait(
        db.all<{
          id: number;
          group_id: number;
          parent_id: number | null;
          slug: string | null;
          names: string;
          order_no: number;
          open_flg: number;
        }>(
          'SELECT id, group_id, parent_id, slug, names, order_no, open_flg FROM topics_categories WHERE tenant = ? AND group_id = ? ORDER BY order_no, id',
          [tenant, groupId],
        ),
      );
      return rows.map((r) => ({
        id: r.id,
        groupId: r.group_id,
        parentId: r.parent_id,
        slug: r.slug,
        names: parseNames(r.names),
        orderNo: r.order_no,
        openFlg: r.open_flg === 1,
      }));
    },
  };
}

/** The masters' and child sites' reads for `tenant` over either face of the database (D271). */
function otherReads(tenant: string, db: SqlReads) {
  return {
    *csvTable(tableId: number, lang: string): Steps<CsvTable | null> {
      const t = yield* wait(
        db.get<{ id: number; columns: string }>('SELECT id, columns FROM csv_tables WHERE tenant = ? AND id = ?', [
          tenant,
          tableId,
        ]),
      );
      if (!t) return null;
      const rows = yield* wait(
        db.all<{ cells: string }>(
          'SELECT cells FROM csv_rows WHERE tenant = ? AND table_id = ? AND lang = ? ORDER BY row_no',
          [tenant, tableId, lang],
        ),
      );
      return { id: t.id, columns: stringList(t.columns), rows: rows.map((r) => stringList(r.cells)) };
    },
    *childSite(siteKey: string): Steps<ChildSite | null> {
      const r = yield* wait(
        db.get<{
          site_key: string;
          names: string;
          url: string;
          lang: string;
          timezone: string;
          open_flg: number;
          inst_at: number;
        }>(
          'SELECT site_key, names, url, lang, timezone, open_flg, inst_at FROM child_sites WHERE tenant = ? AND site_key = ?',
          [tenant, siteKey],
        ),
      );
      return r
        ? {
            siteKey: r.site_key,
            names: parseNames(r.names),
            url: r.url,
            lang: r.lang,
            timezone: r.timezone,
            openFlg: r.open_flg === 1,
            instAt: r.inst_at,
          }
        : null;
    },
  };
}

export function contentAdapters(ctx: SiteContext): Partial<HostAdapters> {
  const tenant = ctx.tenant;
  const { db } = ctx;

  const counterKey = (tenant: string, t: CounterTarget): SqlValue[] => [tenant, t.topicId, t.columnId, t.index];

  const content: ContentAdapter = {
    ...laterFace(contentReads(tenant, db)),
    // SQLite answers on this thread: a render whose host calls are these reads may take the slice.
    ...(db.now ? { now: nowFace(contentReads(tenant, db.now), db.now.snapshot) } : {}),
    async addToCounter(target, amount) {
      // One statement: two increments at once both count, on either backend.
      const r = await db.get<{ value: number }>(
        `INSERT INTO topic_counters_pending (tenant, topic_id, column_id, idx, value)
         VALUES (?, ?, ?, ?, COALESCE((SELECT value FROM topic_counters WHERE tenant = ? AND topic_id = ? AND column_id = ? AND idx = ?), 0) + ?)
         ON CONFLICT (tenant, topic_id, column_id, idx) DO UPDATE SET value = topic_counters_pending.value + ?
         RETURNING value`,
        [...counterKey(tenant, target), ...counterKey(tenant, target), amount, amount],
      );
      return r!.value;
    },
    async setCounter(target, value) {
      return setPending(db, tenant, target, value);
    },
    async topicIdsBySlug(groupId, slugs) {
      const rows = await inChunks(slugs, (c) =>
        db.all<{ id: number; slug: string }>(
          `SELECT id, slug FROM topics WHERE tenant = ? AND group_id = ? AND slug IN ${marks(c.length)}`,
          [tenant, groupId, ...c],
        ),
      );
      return new Map(rows.map((r) => [r.slug, r.id]));
    },
    async setCounters(writes) {
      await db.transaction(async (tx) => {
        for (const w of writes) await setPending(tx, tenant, w.target, w.value);
      });
    },
    async syncCounters(ids) {
      return db.transaction(async (tx) => {
        let copied = 0;
        for (const id of ids) copied += await syncOne(tx, tenant, id);
        return copied;
      });
    },
  };

  if (db.dialect === 'postgres') {
    // Fewer statements for the same answers (content-postgres.ts, D259).
    const group = groupReader(db, tenant);
    content.group = (groupId) => group.part(groupId, 'group');
    content.columns = (groupId) => group.part(groupId, 'columns');
    content.categories = (groupId) => group.part(groupId, 'categories');
    content.topics = (ids) => (ids.length === 0 ? Promise.resolve([]) : topicsInOneStatement(db, tenant, ids));
    content.openPage = (groupId, filter, offset, limit) => group.page(groupId, filter, offset, limit);
  }

  const others = laterFace(otherReads(tenant, db));
  // SQLite answers on this thread: renders whose host calls are these reads may take the slice.
  const othersNow = db.now ? nowFace(otherReads(tenant, db.now), db.now.snapshot) : null;
  const masters: MastersAdapter = {
    csvTable: others.csvTable,
    ...(othersNow ? { now: { csvTable: othersNow.csvTable, snapshot: othersNow.snapshot } } : {}),
  };
  const childSites: ChildSitesAdapter = {
    childSite: others.childSite,
    ...(othersNow ? { now: { childSite: othersNow.childSite, snapshot: othersNow.snapshot } } : {}),
  };

  return { content, masters, childSites };
}

/** Sets one pending counter (update_counter, and each write of setCounters); answers the value stored. */
async function setPending(runner: SqlRunner, tenant: string, t: CounterTarget, value: number): Promise<number> {
  const r = await runner.get<{ value: number }>(
    `INSERT INTO topic_counters_pending (tenant, topic_id, column_id, idx, value) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (tenant, topic_id, column_id, idx) DO UPDATE SET value = excluded.value
     RETURNING value`,
    [tenant, t.topicId, t.columnId, t.index, value],
  );
  return r!.value;
}

/**
 * Publishes one content's pending counters into topic_counters. The pending rows stay: they hold
 * the latest value written, and increments keep adding to them, so an increment that lands while
 * a sync runs is never lost (it is published by the next sync). Answers how many values changed.
 */
async function syncOne(tx: SqlRunner, tenant: string, topicId: number): Promise<number> {
  const r = await tx.run(
    `INSERT INTO topic_counters (tenant, topic_id, column_id, idx, value)
     SELECT tenant, topic_id, column_id, idx, value FROM topic_counters_pending WHERE tenant = ? AND topic_id = ?
     ON CONFLICT (tenant, topic_id, column_id, idx) DO UPDATE SET value = excluded.value WHERE topic_counters.value <> excluded.value`,
    [tenant, topicId],
  );
  return r.changes;
}

/** A JSON list of strings (a CSV row's cells, a table's columns); cells that are not text read as ''. */
function stringList(text: string): string[] {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return [];
  }
  return Array.isArray(v)
    ? v.map((x) => (typeof x === 'string' ? x : x === null || x === undefined ? '' : String(x)))
    : [];
}

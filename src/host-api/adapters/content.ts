/**
 * What the content plugins ask the embedder's CMS (HostAdapters.content, .masters, .childSites):
 * plain data of one tenant, never a template value. The rules (open/close checks against the
 * render's clock, language fallback, sorting, paging, which column is a counter, the filter of
 * assign_csv_table) live in the plugins, src/host-plugins/content/; an adapter only
 * answers what is stored, always for the tenant it is given (the render's identity.tenant).
 */

import type { SnapshotFace } from '../now-or-later.js';

/** Texts of one thing in one language. */
export interface TopicText {
  subject: string;
  /** The body (HTML as stored). */
  contents: string;
}

/** The columns that decide whether a content is open, and the ones its list is sorted and filtered by. */
export interface TopicState {
  id: number;
  groupId: number;
  /** The open flag as stored (the editor's "open"/"closed"). */
  openFlg: boolean;
  /** Open from this instant on (Unix seconds); null: no start. */
  openFrom: number | null;
  /** Closed from this instant on (Unix seconds); null: no end. */
  openUntil: number | null;
  /** The content's date, `YYYY-MM-DD` (the platform's ymd). */
  ymd: string;
  categoryId: number | null;
}

/** One stored value of an extended column; a repeating column has one per index (0-based). */
export interface ExtValue {
  columnId: number;
  index: number;
  /** Text for text-like columns (a date as `YYYY-MM-DD`, JSON as its text), the synced number for counters. */
  value: string | number | null;
}

/** A whole content: what assign_topics_detail and api_method print. */
export interface Topic extends TopicState {
  slug: string | null;
  orderNo: number;
  /** Created and last updated, Unix seconds. */
  instAt: number;
  updateAt: number;
  /** Texts by language (`ja`, `en`...); a language the content was not written in is absent. */
  texts: Readonly<Record<string, TopicText>>;
  /** Extended column values; counters hold the last synced value (sync_counter), not the pending one. */
  ext: readonly ExtValue[];
}

export interface TopicsGroup {
  id: number;
  /** Names by language. */
  names: Readonly<Record<string, string>>;
  descriptions: Readonly<Record<string, string>>;
}

export type ExtColumnType = 'text' | 'textarea' | 'wysiwyg' | 'date' | 'counter' | 'json';

/** An extended column of a content group. */
export interface ExtColumn {
  id: number;
  groupId: number;
  /** The key the column's value has in a content (`view_count`). */
  slug: string;
  type: ExtColumnType;
  /** Repeating columns: how many values a content may hold (indexes 0..repeat-1); 1 for a plain column. */
  repeat: number;
  orderNo: number;
}

export interface TopicsCategory {
  id: number;
  groupId: number;
  parentId: number | null;
  slug: string | null;
  names: Readonly<Record<string, string>>;
  orderNo: number;
  /** Published: shown by assign_topics_category_list and the TopicsCategory list. */
  openFlg: boolean;
}

/** Which contents a list shows: those open at `now` (Unix seconds), of one category or of any (null). */
export interface OpenFilter {
  now: number;
  categoryId: number | null;
}

/** What `openPage` answers: how many contents the filter keeps, and the ids of the page asked for. */
export interface OpenPage {
  total: number;
  ids: number[];
  /**
   * The page's contents, whole, as `topics(ids)` answers them, from a store that reads them with
   * the page in one statement (PostgreSQL, D366: a round trip less). Absent: the list asks `topics`.
   */
  topics?: Topic[];
}

/** Which counter a write goes to: a counter column of a content, and the index for a repeating one. */
export interface CounterTarget {
  topicId: number;
  columnId: number;
  index: number;
}

/** One value for setCounters. */
export interface CounterWrite {
  target: CounterTarget;
  value: number;
}

/**
 * Content groups, contents, their extended columns and categories, and counters
 * (HostAdapters.content). Every method answers for its tenant only: a row of another tenant is
 * "missing". Absent: the content plugins and api_method are E_HOST_CAPABILITY.
 */
export interface ContentAdapter {
  /** The content group `groupId`, or null when the tenant has none of that id. */
  group(groupId: number): Promise<TopicsGroup | null>;
  /** The open/sort state of every content of a group, in no particular order (the plugins sort and page). */
  groupTopics(groupId: number): Promise<TopicState[]>;
  /** The contents of these ids, of any group, in no particular order; an id the tenant has no content of is left out. */
  topics(ids: readonly number[]): Promise<Topic[]>;
  /**
   * A page of the contents of group `groupId` open at `filter.now` (and of `filter.categoryId`, if
   * not null), by the open rule of isOpenAt (src/host-plugins/content/common.ts): how many there
   * are, and the ids of `limit` of them from the `offset`-th, newest first (`ymd` in code-unit
   * order, descending, then the higher id first; 0 is the newest; none past the last). What a list
   * asks of a store that can page (SQL): a page of a group of 20,000 contents then reads its page,
   * not every content's state (docs/decisions.md D346). Absent: lists read `groupTopics` and page
   * it themselves.
   */
  openPage?(groupId: number, filter: OpenFilter, offset: number, limit: number): Promise<OpenPage>;
  /** The id of the content of group `groupId` that has this id, or this slug; null when the group has none. */
  findTopicId(groupId: number, ref: { id: number } | { slug: string }): Promise<number | null>;
  /** The extended columns of a group, in display order. */
  columns(groupId: number): Promise<ExtColumn[]>;
  /** Every category of a group (published or not), in display order. */
  categories(groupId: number): Promise<TopicsCategory[]>;
  /**
   * Counters are written to a pending store and reach the content only with syncCounters (the
   * platform updates them asynchronously). Adds `amount` to the pending value of `target` (its
   * synced value, or 0, when it was never written) in one atomic write, and answers the new
   * pending value. The plugin has checked that the target is a counter column of the content's group.
   */
  addToCounter(target: CounterTarget, amount: number): Promise<number>;
  /** Sets the pending value of `target` (atomic), and answers it. */
  setCounter(target: CounterTarget, value: number): Promise<number>;
  /**
   * Sets the pending values of many targets in ONE transaction: all of them or, if any write
   * fails, none (webanalytics). The plugin has checked every target, as for setCounter. Absent:
   * webanalytics cannot set counters (E_HOST_CAPABILITY).
   */
  setCounters?(writes: readonly CounterWrite[]): Promise<void>;
  /**
   * The contents of group `groupId` that have one of these slugs: slug => id, in a few queries
   * however many slugs (webanalytics names thousands at once). A slug the group has no content
   * of is absent. Absent method: webanalytics cannot set counters (E_HOST_CAPABILITY).
   */
  topicIdsBySlug?(groupId: number, slugs: readonly string[]): Promise<ReadonlyMap<string, number>>;
  /**
   * Publishes the pending values of these contents into their counters, in ONE transaction: all
   * of them or, if any write fails, none. A write made while it runs must not be lost (it is
   * published by the next sync). Answers how many values changed.
   */
  syncCounters(topicIds: readonly number[]): Promise<number>;
  /**
   * The reads above answered at once, by a store that answers on the calling thread (the local
   * site's node:sqlite), with exactly what the async methods would answer. Present: a render whose
   * host calls are all reads of this adapter (`{api_method}`, `{assign_topics_detail}`,
   * `{assign_topics_category_list}`) may run in the synchronous slice of the embedding process,
   * holding its event loop for the statements (docs/decisions.md D268). A read that cannot be
   * answered at once right now (the connection is inside another call's transaction) throws
   * E_SLICE_YIELD (`notNow`): the render then runs again asynchronously. A render on the async
   * path asks it first too, and the methods above only when it throws `notNow` (D362). Absent
   * (PostgreSQL, a CMS over HTTP): such renders take the async path. Never a face of a
   * promise-answering store.
   */
  readonly now?: ContentReadsNow;
}

/** Which ContentAdapter methods only read. */
type ContentReadName = 'group' | 'groupTopics' | 'topics' | 'findTopicId' | 'columns' | 'categories';
/** Reads a store may leave out (lists then page `groupTopics` themselves). */
type OptionalContentReadName = 'openPage';

/** One read answering its value instead of a promise of it. */
type AnsweredNow<F> = F extends (...args: infer A) => infer R ? (...args: A) => Awaited<R> : never;

/** The reads of a ContentAdapter, each answering its value instead of a promise of it (ContentAdapter.now). */
export type ContentReadsNow = {
  readonly [K in ContentReadName]: AnsweredNow<ContentAdapter[K]>;
} & {
  readonly [K in OptionalContentReadName]?: AnsweredNow<NonNullable<ContentAdapter[K]>>;
} & SnapshotFace;

/** The reads of a ContentAdapter as a plugin written for both paths sees them: the adapter, or its now face. */
export type ContentReads = Pick<ContentAdapter, ContentReadName | OptionalContentReadName> | ContentReadsNow;

/** A master (CSV) table: its column names and its rows in one language. */
export interface CsvTable {
  id: number;
  /** Column names, in order: the keys `filter` and `allow_list` name. */
  columns: readonly string[];
  /** Rows in file order, each a list of cells in column order. */
  rows: readonly (readonly string[])[];
}

/** Master tables (HostAdapters.masters). Absent: assign_csv_table is E_HOST_CAPABILITY. */
export interface MastersAdapter {
  /**
   * Table `tableId` of the tenant in `lang`, or null when the tenant has no such table. A table
   * kept in other languages but not in `lang` answers with no rows (the plugin falls back).
   */
  csvTable(tableId: number, lang: string): Promise<CsvTable | null>;
  /** `csvTable` answered at once, as ContentAdapter.now answers its reads (D268, D271). */
  readonly now?: { readonly csvTable: (tableId: number, lang: string) => CsvTable | null } & SnapshotFace;
}

/** A child site of a site (the platform's site hierarchy). */
export interface ChildSite {
  siteKey: string;
  /** Display names by language. */
  names: Readonly<Record<string, string>>;
  url: string;
  lang: string;
  timezone: string;
  openFlg: boolean;
  instAt: number;
}

/** Child sites (HostAdapters.childSites). Absent: child_site is E_HOST_CAPABILITY. */
export interface ChildSitesAdapter {
  /** The child site `siteKey` of the tenant (never a site that is not its child), or null. */
  childSite(siteKey: string): Promise<ChildSite | null>;
  /** `childSite` answered at once, as ContentAdapter.now answers its reads (D268, D271). */
  readonly now?: { readonly childSite: (siteKey: string) => ChildSite | null } & SnapshotFace;
}

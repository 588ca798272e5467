/**
 * The reads assign_topics_detail, assign_topics_category_list and api_method share: one content
 * (open or not, as asked), a page of a group's open contents, a group's published categories.
 * Sorting, paging and the open rule happen here, on the adapter's plain data. Each is written in
 * steps (src/host-api/now-or-later.ts), so the same code answers on the async path and, over an
 * adapter's now face, at once in the synchronous slice (D268).
 */
import type { ContentReads, OpenFilter, OpenPage, Topic } from '../../host-api/adapters/content.js';
import { wait, waitAll, type Steps } from '../../host-api/now-or-later.js';
import type { RenderClock } from '../plugin-contract.js';
import { PhpArray } from '../../value/value.js';
import { pageWindow, type PageWindow } from '../../plugins/array/pager.js';
import { isOpenAt } from './common.js';
import { categoryArray, groupReads, groupView, publishedCategories, topicArray, viewOf } from './topic-shape.js';

export interface ReadOptions {
  lang: string;
  render: RenderClock;
}

/** One content in the API's shape; null when the tenant has none of that id, or (checkOpen) it is not open now. */
export function* topicDetail(
  content: ContentReads,
  id: number,
  checkOpen: boolean,
  o: ReadOptions,
): Steps<PhpArray | null> {
  const [t] = yield* wait(content.topics([id]));
  if (!t || (checkOpen && !isOpenAt(t, o.render.now))) return null;
  const view = yield* groupView(content, t.groupId);
  return view ? topicArray(t, view, o.lang, o.render) : null;
}

export interface ListQuery {
  groupId: number;
  perPage: number;
  page: number;
  /** Only contents of this category. */
  categoryId: number | null;
}

/**
 * A page of the open contents of a group, newest first (ymd, then the higher id first), and the
 * page window; a group the tenant does not have is an empty list.
 */
export function* topicList(
  content: ContentReads,
  q: ListQuery,
  o: ReadOptions,
): Steps<{ list: PhpArray; window: PageWindow }> {
  const filter = { now: o.render.now, categoryId: q.categoryId };
  // The page asked for, as if there were no last page; past the last, the last is asked for again.
  const asked = pageWindow(Number.MAX_SAFE_INTEGER, q.perPage, q.page);
  // The group's parts and the page asked together: a store may answer them in one statement
  // (PostgreSQL, D367). The page of a group the tenant lacks is empty, and not used.
  const [group, columns, categories, first] = yield* waitAll([
    ...groupReads(content, q.groupId),
    content.openPage?.(q.groupId, filter, asked.start, asked.perPage),
  ]);
  const view = viewOf([group, columns, categories]);
  const { window, ids, topics } = view
    ? yield* openPage(content, q, filter, asked, first)
    : { window: pageWindow(0, q.perPage, q.page), ids: [] };
  // A store that read the contents with the page (PostgreSQL, D366) saves a statement.
  const read = topics ?? (ids.length > 0 ? yield* wait(content.topics(ids)) : []);
  const byId = new Map(read.map((t) => [t.id, t]));
  const list = PhpArray.empty();
  for (const id of ids) {
    const t = byId.get(id);
    if (t && view) list.push(topicArray(t, view, o.lang, o.render));
  }
  return { list, window };
}

/**
 * The page of a group's open contents a list shows, and its window. A store that pages (SQL) was
 * asked for the page `asked` with the group's parts (`first`, its answer); past the last page it
 * is asked again for the last. Any other store is read whole and paged here, by the same rule.
 */
function* openPage(
  content: ContentReads,
  q: ListQuery,
  filter: OpenFilter,
  asked: PageWindow,
  first: OpenPage | undefined,
): Steps<{ window: PageWindow; ids: readonly number[]; topics?: readonly Topic[] | undefined }> {
  if (content.openPage && first) {
    let page = first;
    let window = pageWindow(page.total, q.perPage, q.page);
    if (window.start !== asked.start) {
      page = yield* wait(content.openPage(q.groupId, filter, window.start, asked.perPage));
      window = pageWindow(page.total, q.perPage, q.page);
    }
    return { window, ids: page.ids.slice(0, window.end - window.start), topics: page.topics };
  }
  const open = (yield* wait(content.groupTopics(q.groupId)))
    .filter(
      (s) =>
        s.groupId === q.groupId &&
        isOpenAt(s, filter.now) &&
        (filter.categoryId === null || s.categoryId === filter.categoryId),
    )
    .sort((a, b) => (a.ymd === b.ymd ? b.id - a.id : a.ymd < b.ymd ? 1 : -1));
  const window = pageWindow(open.length, q.perPage, q.page);
  return { window, ids: open.slice(window.start, window.end).map((s) => s.id) };
}

/** The published categories of a group, in display order, in the API's shape. */
export function* categoryList(content: ContentReads, groupId: number, o: ReadOptions): Steps<PhpArray> {
  const all = yield* wait(content.categories(groupId));
  return PhpArray.fromList(publishedCategories(all).map((c) => categoryArray(c, o.lang, o.render)));
}

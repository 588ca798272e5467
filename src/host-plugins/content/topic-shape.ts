/**
 * A content as the content API prints it (Topics::details, the items of Topics::list,
 * assign_topics_detail) and a category as TopicsCategory::list prints it; docs/site.md, "Content",
 * lists the members. Built from what the adapter answers, in the language asked for.
 */
import type {
  ContentReads,
  ExtColumn,
  ExtValue,
  Topic,
  TopicsCategory,
  TopicsGroup,
} from '../../host-api/adapters/content.js';
import type { RenderClock } from '../plugin-contract.js';
import { PhpArray, PhpFloat, fromJS, type Value } from '../../value/value.js';
import { normalizeKey } from '../../value/php-array.js';
import { phpDate } from '../../php/date/date.js';
import { jsonDecode } from '../../php/json/decode.js';
import { inLang } from '../data-attrs.js';
import { waitAll, type Steps } from '../../host-api/now-or-later.js';

/** What a content's shape needs of its group, asked once for a whole list. */
export interface GroupView {
  group: TopicsGroup;
  columns: readonly ExtColumn[];
  categories: ReadonlyMap<number, TopicsCategory>;
}

export function* groupView(content: ContentReads, groupId: number): Steps<GroupView | null> {
  return viewOf(yield* waitAll(groupReads(content, groupId)));
}

/**
 * The reads of a group's view, asked and not yet waited for: a caller that asks another read in
 * the same run of code lets a store answer them all in one statement (PostgreSQL, D367).
 */
export function groupReads(content: ContentReads, groupId: number) {
  return [content.group(groupId), content.columns(groupId), content.categories(groupId)] as const;
}

/** The view of what groupReads answered; null when the tenant has no such group. */
export function viewOf([group, columns, categories]: [
  TopicsGroup | null,
  ExtColumn[],
  TopicsCategory[],
]): GroupView | null {
  return group ? { group, columns, categories: new Map(categories.map((c) => [c.id, c])) } : null;
}

/** The categories shown to the public: open, and every category above open too. */
export function publishedCategories(all: readonly TopicsCategory[]): TopicsCategory[] {
  const byId = new Map(all.map((c) => [c.id, c]));
  const published = (c: TopicsCategory): boolean => {
    const seen = new Set<number>();
    for (let at: TopicsCategory | undefined = c; at; at = at.parentId === null ? undefined : byId.get(at.parentId)) {
      if (!at.openFlg || seen.has(at.id)) return false;
      seen.add(at.id);
    }
    return true;
  };
  return all.filter(published);
}

export function categoryArray(c: TopicsCategory, lang: string, render: RenderClock): PhpArray {
  return PhpArray.fromEntries([
    ['topics_category_id', c.id],
    ['topics_group_id', c.groupId],
    ['category_nm', inLang(c.names, lang, render.lang) ?? ''],
    ['slug', c.slug ?? ''],
    ['category_parent_id', c.parentId],
    ['order_no', c.orderNo],
  ]);
}

const iso = (ts: number, render: RenderClock): string => phpDate('c', ts, render.timezone);

export function topicArray(t: Topic, view: GroupView, lang: string, render: RenderClock): PhpArray {
  const text = inLang(t.texts, lang, render.lang);
  const category = t.categoryId === null ? undefined : view.categories.get(t.categoryId);
  const parent =
    category?.parentId === null || category === undefined ? undefined : view.categories.get(category.parentId);
  const name = (c: TopicsCategory | undefined): string | null =>
    c ? (inLang(c.names, lang, render.lang) ?? '') : null;
  // Plain data read as a lazy record (fromJS): the answer's encoder sends it as it is, where a
  // map built here was walked back out into the same object (transfer.ts and the copy-on-change walk, src/value/copy-on-change.ts).
  const out: Record<string, unknown> = {
    topics_id: t.id,
    ymd: t.ymd,
    contents_type: t.categoryId,
    subject: text?.subject ?? '',
    topics_flg: 1,
    open_flg: t.openFlg ? 1 : 0,
    regular_flg: 0,
    inst_ymdhi: iso(t.instAt, render),
    update_ymdhi: iso(t.updateAt, render),
    topics_group_id: t.groupId,
    slug: t.slug ?? '',
    order_no: t.orderNo,
    group_nm: inLang(view.group.names, lang, render.lang) ?? '',
    group_description: inLang(view.group.descriptions, lang, render.lang) ?? '',
    contents_type_cnt: category ? 1 : 0,
    contents_type_nm: name(category),
    contents_type_slug: category ? category.slug : null,
    contents_type_parent_nm: name(parent),
    category_parent_id: category ? category.parentId : null,
    contents_type_list: category ? [category.id] : [],
    contents: text?.contents ?? '',
  };
  for (const col of view.columns) {
    // A slug that is an int key in PHP (or `__proto__`) would not keep its place in an object.
    if (!nameKey(col.slug)) return arrayWithColumns(out, t, view);
    out[col.slug] = extValue(
      col,
      t.ext.filter((v) => v.columnId === col.id),
    );
  }
  return fromJS(out) as PhpArray;
}

const nameKey = (k: string): boolean => k !== '__proto__' && typeof normalizeKey(k) === 'string';

/** The content's fields, then its columns, as an array built key by key. */
function arrayWithColumns(fields: Record<string, unknown>, t: Topic, view: GroupView): PhpArray {
  const arr = PhpArray.empty();
  for (const k of Object.keys(fields)) arr.set(k, fromJS(fields[k]));
  for (const col of view.columns)
    arr.set(
      col.slug,
      extValue(
        col,
        t.ext.filter((v) => v.columnId === col.id),
      ),
    );
  return arr;
}

/**
 * One column's value: counters are numbers (0 when never set), json columns decoded, others
 * text ('' when empty). A repeating counter lists every index; another repeating column lists the
 * values it holds, in index order.
 */
function extValue(col: ExtColumn, values: readonly ExtValue[]): Value {
  const one = (v: ExtValue['value'] | undefined): Value => {
    if (col.type === 'counter') return exactNumber(typeof v === 'number' ? v : Number(v ?? 0) || 0);
    if (col.type === 'json') return typeof v === 'string' ? jsonDecode(v) : null;
    return v === null || v === undefined ? '' : String(v);
  };
  const at = (i: number): ExtValue | undefined => values.find((v) => v.index === i);
  if (col.repeat <= 1) return one(at(0)?.value);
  if (col.type === 'counter') return PhpArray.fromList(Array.from({ length: col.repeat }, (_, i) => one(at(i)?.value)));
  return PhpArray.fromList(
    [...values]
      .filter((v) => v.index < col.repeat)
      .sort((a, b) => a.index - b.index)
      .map((v) => one(v.value)),
  );
}

/**
 * A number as the float it is in an array (value.ts: an integral number past 2^53 is a float),
 * which `fromJS` would read as an int.
 */
const exactNumber = (n: number): Value => (Number.isInteger(n) && !Number.isSafeInteger(n) ? new PhpFloat(n) : n);

/**
 * Tags family (HostAdapters.tags): a tenant's tag categories, its tags, and which tags an item
 * (a content, a member...) carries. The adapter answers data for its own tenant only;
 * ordering, language choice and the category tree are the plugins' (src/host-plugins/tags/).
 */

import type { SnapshotFace } from '../now-or-later.js';

export interface TagCategoryRecord {
  categoryId: number;
  /** The parent category; null for a top-level one. */
  parentId: number | null;
  /** The name per language code; a language without a name is absent. */
  names: Readonly<Record<string, string>>;
  /** Display order among its siblings (ascending). */
  order: number;
}

export interface TagRecord {
  tagId: number;
  categoryId: number;
  names: Readonly<Record<string, string>>;
  order: number;
  /** How many open contents carry the tag. */
  openContentsCount: number;
  /** 'YYYY-MM-DD HH:MM:SS' in the site's time zone. */
  created: string;
}

export interface TagsAdapter {
  /** Every tag category of the tenant. */
  categories(): Promise<TagCategoryRecord[]>;
  /** The tags of one category of the tenant (not those of its child categories); none for a category it does not have. */
  tagsOf(categoryId: number): Promise<TagRecord[]>;
  /** The tenant's tags among `ids`; an id the tenant does not have is absent. */
  tags(ids: readonly number[]): Promise<TagRecord[]>;
  /** The ids of the tags an item carries (`module` as the platform names it: topics, member...), in relation order. */
  related(module: string, moduleId: number): Promise<number[]>;
  /**
   * The reads above answered at once, by a store that answers on the calling thread (the local
   * site's node:sqlite), with exactly what the async methods would answer. Present: a render whose
   * host calls are all reads (`{assign_tag_list}`, `{assign_tag_category_list}`,
   * `{assign_relation_tag_list}`, and the content reads when the content adapter has its own now
   * face) may run in the synchronous slice of the embedding process (docs/decisions.md D268, D271).
   * Throws E_SLICE_YIELD (`notNow`) when a read cannot be answered right now; absent on a store
   * that answers through promises.
   */
  readonly now?: TagsReadsNow;
}

/** The reads of a TagsAdapter, each answering its value instead of a promise of it (TagsAdapter.now). */
export type TagsReadsNow = {
  readonly [K in TagsReadName]: (...args: Parameters<TagsAdapter[K]>) => Awaited<ReturnType<TagsAdapter[K]>>;
} & SnapshotFace;

/** Every TagsAdapter method only reads. */
type TagsReadName = 'categories' | 'tagsOf' | 'tags' | 'related';

/** The reads of a TagsAdapter as a plugin written for both paths sees them: the adapter, or its now face. */
export type TagsReads = Pick<TagsAdapter, TagsReadName> | TagsReadsNow;

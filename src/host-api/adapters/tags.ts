/**
 * Tags family (HostAdapters.tags): a tenant's tag categories, its tags, and which tags an item
 * (a content, a member...) carries. The adapter answers data for its own tenant only;
 * ordering, language choice and the category tree are the plugins' (src/host-plugins/tags/).
 */

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
}

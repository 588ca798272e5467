/** HostAdapters.tags of a local site: tag categories, tags and tag relations of the site's own tenant. */
import type { HostAdapters, TagRecord, TagsAdapter } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import type { SqlValue } from '../db/database.js';
import { placeholders } from './rows.js';
import { parseNames } from './content.js';

interface TagRow {
  tag_id: number;
  tag_category_id: number;
  names: string;
  order_no: number;
  open_contents_cnt: number;
  inst_ymdhi: string;
}

export function tagsAdapters(ctx: SiteContext): Partial<HostAdapters> {
  const tenant = ctx.tenant;
  const db = ctx.db;

  /** The tags `where` selects (a condition on `tags`, its parameters after the tenant's). */
  async function tagsWhere(tenant: string, where: string, params: SqlValue[]): Promise<TagRecord[]> {
    const rows = await db.all<TagRow>(
      `SELECT tag_id, tag_category_id, names, order_no, open_contents_cnt, inst_ymdhi FROM tags WHERE tenant = ? AND ${where} ORDER BY tag_id`,
      [tenant, ...params],
    );
    return rows.map((r) => ({
      tagId: r.tag_id,
      categoryId: r.tag_category_id,
      names: parseNames(r.names),
      order: r.order_no,
      openContentsCount: r.open_contents_cnt,
      created: r.inst_ymdhi,
    }));
  }

  const tags: TagsAdapter = {
    async categories() {
      const rows = await db.all<{ id: number; parent: number | null; names: string; order_no: number }>(
        'SELECT tag_category_id AS id, parent_tag_category_id AS parent, names, order_no FROM tag_categories WHERE tenant = ? ORDER BY tag_category_id',
        [tenant],
      );
      return rows.map((r) => ({ categoryId: r.id, parentId: r.parent, names: parseNames(r.names), order: r.order_no }));
    },
    async tagsOf(categoryId) {
      return tagsWhere(tenant, 'tags.tag_category_id = ?', [categoryId]);
    },
    async tags(ids) {
      if (ids.length === 0) return [];
      return tagsWhere(tenant, `tags.tag_id IN ${placeholders(ids.length)}`, [...ids]);
    },
    async related(module, moduleId) {
      const rows = await db.all<{ tag_id: number }>(
        'SELECT tag_id FROM tag_relations WHERE tenant = ? AND module = ? AND module_id = ? ORDER BY order_no, tag_id',
        [tenant, module, moduleId],
      );
      return rows.map((r) => r.tag_id);
    },
  };
  return { tags };
}

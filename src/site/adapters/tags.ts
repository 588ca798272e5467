/**
 * HostAdapters.tags of a local site: tag categories, tags and tag relations of the site's own
 * tenant. Every method only reads, written once in steps (src/host-api/now-or-later.ts): on SQLite
 * they also answer at once, the adapter's now face (docs/decisions.md D271).
 */
import {
  laterFace,
  nowFace,
  wait,
  type HostAdapters,
  type Steps,
  type TagCategoryRecord,
  type TagRecord,
  type TagsAdapter,
} from '../../index.js';
import type { SiteContext } from '../site-context.js';
import type { SqlReads, SqlValue } from '../db/database.js';
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

/** The tags adapter's reads for `tenant` over either face of the database (SqlRunner, or SQLite's `db.now`). */
function tagsReads(tenant: string, db: SqlReads) {
  /** The tags `where` selects (a condition on `tags`, its parameters after the tenant's). */
  function* tagsWhere(where: string, params: SqlValue[]): Steps<TagRecord[]> {
    const rows = yield* wait(
      db.all<TagRow>(
        `SELECT tag_id, tag_category_id, names, order_no, open_contents_cnt, inst_ymdhi FROM tags WHERE tenant = ? AND ${where} ORDER BY tag_id`,
        [tenant, ...params],
      ),
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

  return {
    *categories(): Steps<TagCategoryRecord[]> {
      const rows = yield* wait(
        db.all<{ id: number; parent: number | null; names: string; order_no: number }>(
          'SELECT tag_category_id AS id, parent_tag_category_id AS parent, names, order_no FROM tag_categories WHERE tenant = ? ORDER BY tag_category_id',
          [tenant],
        ),
      );
      return rows.map((r) => ({ categoryId: r.id, parentId: r.parent, names: parseNames(r.names), order: r.order_no }));
    },
    *tagsOf(categoryId: number): Steps<TagRecord[]> {
      return yield* tagsWhere('tags.tag_category_id = ?', [categoryId]);
    },
    *tags(ids: readonly number[]): Steps<TagRecord[]> {
      if (ids.length === 0) return [];
      return yield* tagsWhere(`tags.tag_id IN ${placeholders(ids.length)}`, [...ids]);
    },
    *related(module: string, moduleId: number): Steps<number[]> {
      const rows = yield* wait(
        db.all<{ tag_id: number }>(
          'SELECT tag_id FROM tag_relations WHERE tenant = ? AND module = ? AND module_id = ? ORDER BY order_no, tag_id',
          [tenant, module, moduleId],
        ),
      );
      return rows.map((r) => r.tag_id);
    },
  };
}

export function tagsAdapters(ctx: SiteContext): Partial<HostAdapters> {
  const { db, tenant } = ctx;
  const tags: TagsAdapter = {
    ...laterFace(tagsReads(tenant, db)),
    // SQLite answers on this thread: a render whose host calls are these reads may take the slice.
    ...(db.now ? { now: nowFace(tagsReads(tenant, db.now), db.now.snapshot) } : {}),
  };
  return { tags };
}

/** HostAdapters.comments and .favorites of a local site, over the site's own tenant's rows. */
import type { CommentRecord, FavoriteQuery, HostAdapters } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import type { SqlValue } from '../db/database.js';

interface CommentRow {
  comment_id: number;
  module_type: string;
  module_id: number;
  member_id: number | null;
  name: string;
  note: string;
  inst_ymdhi: string;
}

/** The WHERE clause of a favorites query (after `tenant = ?`) and its parameters. */
function favoriteFilter(q: FavoriteQuery): { where: string; params: SqlValue[] } {
  let where = 'module_type = ? AND action_type = ?';
  const params: SqlValue[] = [q.moduleType, q.actionType];
  if (q.moduleId !== null) {
    where += ' AND module_id = ?';
    params.push(q.moduleId);
  }
  if (q.since !== null) {
    where += ' AND created_at >= ?';
    params.push(q.since);
  }
  if (q.by && 'memberId' in q.by) {
    where += ' AND member_id = ?';
    params.push(q.by.memberId);
  } else if (q.by) {
    where += ' AND cookie_id = ?';
    params.push(q.by.cookieId);
  }
  return { where, params };
}

export function communityAdapters(ctx: SiteContext): Partial<HostAdapters> {
  const tenant = ctx.tenant;
  const db = ctx.db;
  return {
    comments: {
      async newest(q): Promise<CommentRecord[]> {
        const item = q.moduleId === null ? '' : ' AND module_id = ?';
        const rows = await db.all<CommentRow>(
          `SELECT comment_id, module_type, module_id, member_id, name, note, inst_ymdhi FROM comments
           WHERE tenant = ? AND open_flg = 1 AND module_type = ?${item} ORDER BY inst_ymdhi DESC, comment_id DESC LIMIT ?`,
          [tenant, q.moduleType, ...(q.moduleId === null ? [] : [q.moduleId]), q.limit],
        );
        return rows.map((r) => ({
          commentId: r.comment_id,
          moduleType: r.module_type,
          moduleId: r.module_id,
          memberId: r.member_id,
          name: r.name,
          note: r.note,
          created: r.inst_ymdhi,
        }));
      },
    },
    favorites: {
      async count(q) {
        const { where, params } = favoriteFilter(q);
        const row = await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM favorites WHERE tenant = ? AND ${where}`, [
          tenant,
          ...params,
        ]);
        return row?.n ?? 0;
      },
      async countPerItem(q, limit) {
        const { where, params } = favoriteFilter(q);
        const rows = await db.all<{ id: number; n: number }>(
          `SELECT module_id AS id, COUNT(*) AS n FROM favorites WHERE tenant = ? AND ${where} GROUP BY module_id ORDER BY n DESC, module_id LIMIT ?`,
          [tenant, ...params, limit],
        );
        return rows.map((r) => [r.id, r.n] as [number, number]);
      },
    },
  };
}

/**
 * Which contents a list shows, as SQL for both backends (ContentAdapter.openPage, D346): the open
 * rule of isOpenAt (src/host-plugins/content/common.ts) and a list's category, over the columns of
 * the index topics_open_by_date (schema migration 6), so a count reads the index alone.
 */
import type { OpenFilter } from '../../index.js';
import type { SqlValue } from '../db/database.js';

/** The WHERE clause of a group's contents open at `f.now`, and its parameters. */
export function openWhere(tenant: string, groupId: number, f: OpenFilter): [string, SqlValue[]] {
  const where =
    'tenant = ? AND group_id = ? AND open_flg = 1 AND (open_from IS NULL OR open_from <= ?) AND (open_until IS NULL OR ? < open_until)';
  const params: SqlValue[] = [tenant, groupId, f.now, f.now];
  return f.categoryId === null ? [where, params] : [`${where} AND category_id = ?`, [...params, f.categoryId]];
}

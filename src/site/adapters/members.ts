/**
 * HostAdapters.members of a local site: super users from site.json, members, groups (names,
 * viewing permissions) and custom searches from the database, always of the site's own tenant.
 */
import type { HostAdapters, MemberGroupRecord, MemberRecord, MembersAdapter } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import { listsById, placeholders } from './rows.js';
import { parseNames } from './content.js';

interface MemberRow {
  member_id: number;
  name1: string;
  name2: string;
  nickname: string;
  email: string;
  login_id: string;
  open_flg: number;
  inst_ymdhi: string;
  update_ymdhi: string;
}

export function membersAdapters(ctx: SiteContext): Partial<HostAdapters> {
  const tenant = ctx.tenant;
  const db = ctx.db;
  const members: MembersAdapter = {
    async isSuperUser(memberId) {
      return ctx.config.super_users.includes(memberId);
    },
    async exists(memberId) {
      return (
        (await db.get('SELECT 1 AS found FROM members WHERE tenant = ? AND member_id = ?', [tenant, memberId])) !==
        undefined
      );
    },
    async member(memberId): Promise<MemberRecord | null> {
      const row = await db.get<MemberRow>(
        'SELECT member_id, name1, name2, nickname, email, login_id, open_flg, inst_ymdhi, update_ymdhi FROM members WHERE tenant = ? AND member_id = ?',
        [tenant, memberId],
      );
      if (!row) return null;
      const groups = await db.all<{ group_id: number }>(
        'SELECT group_id FROM member_group_members WHERE tenant = ? AND member_id = ? ORDER BY group_id',
        [tenant, memberId],
      );
      return {
        memberId: row.member_id,
        name1: row.name1,
        name2: row.name2,
        nickname: row.nickname,
        email: row.email,
        loginId: row.login_id,
        open: row.open_flg === 1,
        groupIds: groups.map((g) => g.group_id),
        created: row.inst_ymdhi,
        updated: row.update_ymdhi,
      };
    },
    async groups(ids): Promise<MemberGroupRecord[]> {
      if (ids.length === 0) return [];
      const among = placeholders(ids.length);
      const found = await db.all<{ group_id: number; names: string }>(
        `SELECT group_id, names FROM member_groups WHERE tenant = ? AND group_id IN ${among} ORDER BY group_id`,
        [tenant, ...ids],
      );
      const viewers = listsById(
        await db.all(
          `SELECT group_id AS id, viewer_group_id AS value FROM member_group_viewers WHERE tenant = ? AND group_id IN ${among} ORDER BY viewer_group_id`,
          [tenant, ...ids],
        ),
      );
      return found.map((g) => ({
        groupId: g.group_id,
        names: parseNames(g.names),
        viewerGroupIds: viewers.get(g.group_id) ?? [],
      }));
    },
    async customSearches() {
      return db.all<{ id: number; name: string; conditions: string }>(
        'SELECT cs_id AS id, name, conditions FROM member_custom_searches WHERE tenant = ? ORDER BY cs_id',
        [tenant],
      );
    },
    async setCustomSearchResults(memberId, ids) {
      await db.transaction(async (tx) => {
        await tx.run('DELETE FROM member_custom_search_results WHERE tenant = ? AND member_id = ?', [tenant, memberId]);
        for (const id of ids)
          await tx.run('INSERT INTO member_custom_search_results (tenant, cs_id, member_id) VALUES (?, ?, ?)', [
            tenant,
            id,
            memberId,
          ]);
      });
    },
  };
  return { members };
}

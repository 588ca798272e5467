/**
 * The conditions of a member custom search, as {refresh_cs} reads them: a JSON object with
 *   group_ids  a non-empty list of group ids: the member is in at least one of them;
 *   open_flg   0 or 1: the member's profile is closed or open.
 * Both given: both must hold; `{}` matches every member. Anything else (another key, another
 * type, text that is not JSON, more than MAX_CONDITIONS characters) matches nobody: a search we
 * cannot read must not put members into it.
 */
import type { MemberRecord } from '../../host-api/adapters/members.js';

const MAX_CONDITIONS = 4096;

export function meetsConditions(conditions: string, member: MemberRecord): boolean {
  if (conditions.length > MAX_CONDITIONS) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(conditions);
  } catch {
    return false;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
  const cond = parsed as Record<string, unknown>;
  for (const key of Object.keys(cond)) if (key !== 'group_ids' && key !== 'open_flg') return false;
  if ('group_ids' in cond) {
    const ids = cond.group_ids;
    if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => Number.isInteger(id))) return false;
    if (!ids.some((id: number) => member.groupIds.includes(id))) return false;
  }
  if ('open_flg' in cond) {
    if (cond.open_flg !== 0 && cond.open_flg !== 1) return false;
    if ((cond.open_flg === 1) !== member.open) return false;
  }
  return true;
}

/**
 * {assign_my_favorite_cnt}: the marks of the render's member (identity.memberId, never an
 * attribute), or with cookie_flg=1 those a visitor's browser keeps under its cookie id.
 */
import { implement } from '../plugin-contract.js';
import { missingAdapter } from '../../host-api/capabilities.js';
import type { FavoriteQuery } from '../../host-api/adapters/community.js';
import { FAVORITE_COOKIE, actionType, cookieId } from './favorites.js';
import declaration from '../../plugins/host-community/assign_my_favorite_cnt.js';

export const assignMyFavoriteCnt = implement(declaration, async (attrs, call, favorites) => {
  const { memberId, requestId, context } = call.identity;
  const type = actionType(attrs.action_type, 'assign_my_favorite_cnt');
  let by: FavoriteQuery['by'] | null = null;
  if (attrs.cookie_flg === 1) {
    if (!call.host.cookies) throw missingAdapter('{assign_my_favorite_cnt} cookie_flg=1', 'cookies');
    // A batch has no browser, so no cookie (as {cookie} reads it).
    const id = context === 'batch' ? null : cookieId(await call.host.cookies.get(requestId, FAVORITE_COOKIE));
    if (id !== null) by = { cookieId: id };
  } else if (memberId !== null) by = { memberId };
  const count =
    by === null
      ? 0
      : await favorites.count({
          moduleType: String(attrs.module_type),
          moduleId: typeof attrs.module_id === 'number' ? attrs.module_id : null,
          actionType: type,
          since: null,
          by,
        });
  return { assign: [[String(attrs.var), count]] };
});

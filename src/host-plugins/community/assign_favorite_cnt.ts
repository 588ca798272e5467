/**
 * {assign_favorite_cnt}: everybody's likes of an item or of a module type, optionally since a
 * moment that strtotime reads against the render's clock, as a number or counts per item.
 */
import { implement } from '../plugin-contract.js';
import { PhpArray } from '../../value/value.js';
import { BridgeError } from '../../host-api/errors.js';
import { adapterWith } from '../../host-api/capabilities.js';
import { phpStrtotime } from '../../php/date/strtotime.js';
import type { FavoriteQuery } from '../../host-api/adapters/community.js';
import declaration from '../../plugins/host-community/assign_favorite_cnt.js';

const MAX_ITEMS = 1000;

export const assignFavoriteCnt = implement(declaration, async (attrs, call) => {
  const list = attrs.format === 'list';
  const favorites = adapterWith(
    call.host,
    'favorites',
    list ? '{assign_favorite_cnt} format="list"' : '{assign_favorite_cnt}',
    list ? ['countPerItem'] : [],
  );
  let since: number | null = null;
  if (typeof attrs.time === 'string' && attrs.time !== '') {
    const t = phpStrtotime(attrs.time, call.render.now, call.render.timezone);
    if (t === false)
      throw new BridgeError(
        'E_BAD_ATTRIBUTE',
        `{assign_favorite_cnt} time= ${JSON.stringify(attrs.time.slice(0, 60))} is not a time strtotime reads`,
      );
    since = t;
  }
  const query: FavoriteQuery = {
    moduleType: String(attrs.module_type),
    moduleId: typeof attrs.module_id === 'number' ? attrs.module_id : null,
    actionType: 0,
    since,
  };
  if (!list) return { assign: [[String(attrs.var), await favorites.count(query)]] };
  const counts = (await favorites.countPerItem(query, MAX_ITEMS)).slice(0, MAX_ITEMS);
  return { assign: [[String(attrs.var), PhpArray.fromEntries(counts)]] };
});

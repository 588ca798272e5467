/** What the favorites plugins share: the kind of mark they count and the cookie of visitors' favorites (docs/decisions.md D58). */
import type { Value } from '../../value/value.js';
import { BridgeError } from '../../host-api/errors.js';

/** The cookie that holds the id a visitor's browser keeps its favorites under (cookie_flg=1). */
export const FAVORITE_COOKIE = 'rcms_favorite_id';
/** A cookie id as the site issues it; any other cookie value is no id at all. */
const COOKIE_ID = /^[A-Za-z0-9_-]{16,64}$/;

export function cookieId(raw: string | null): string | null {
  return raw !== null && COOKIE_ID.test(raw) ? raw : null;
}

/** action_type: digits (0 like, the default). */
export function actionType(v: Value, plugin: string): number {
  if (typeof v === 'string' && /^\d{1,9}$/.test(v)) return Number(v);
  throw new BridgeError('E_BAD_ATTRIBUTE', `{${plugin}} action_type= must be digits (0: like)`);
}

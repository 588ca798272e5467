/**
 * What the content plugins share: the adapter of the render's tenant, the open rule and array
 * parameters (the language and ID attributes are ../data-attrs.ts). The tenant is always the
 * render's identity.tenant.
 */
import type { BridgeCall } from '../plugin-contract.js';
import type { ContentAdapter, TopicState } from '../../host-api/adapters/content.js';
import { missingAdapter } from '../../host-api/capabilities.js';
import { PhpArray, type Value } from '../../value/value.js';

export function contentAdapter(call: BridgeCall, plugin: string): ContentAdapter {
  const content = call.host.content;
  if (!content) throw missingAdapter(`{${plugin}}`, 'content');
  return content;
}

/**
 * The open rule (chk_open_flg, the API's lists and details): the open flag is set, the open date
 * (if any) has come and the close date (if any) has not, at the render's clock.
 */
export function isOpenAt(s: TopicState, now: number): boolean {
  return s.openFlg && (s.openFrom === null || s.openFrom <= now) && (s.openUntil === null || now < s.openUntil);
}

/** A member of an array attribute (request_params, method_params), or null. */
export function param(arr: Value, key: string): Value {
  return arr instanceof PhpArray && arr.has(key) ? arr.get(key) : null;
}

/**
 * What the content plugins share: the adapter of the render's tenant, the language rules, the
 * open rule and ID attributes. The tenant is always the render's identity.tenant.
 */
import type { BridgeCall } from '../../plugin-contract.js';
import type { ContentAdapter, TopicState } from '../../adapters/content.js';
import { BridgeError } from '../../errors.js';
import { missingAdapter } from '../../capabilities.js';
import { PhpArray, type Value } from '../../../value/value.js';

export function contentAdapter(call: BridgeCall, plugin: string): ContentAdapter {
  const content = call.host.content;
  if (!content) throw missingAdapter(`{${plugin}}`, 'content');
  return content;
}

const LANG = /^[a-z]{2}$/;

/** The `lang` attribute: two lower-case letters, default the site's language. */
export function langAttr(plugin: string, v: Value, call: BridgeCall): string {
  if (v === undefined || v === null || v === '') return call.render.lang;
  if (typeof v !== 'string' || !LANG.test(v)) throw new BridgeError('E_BAD_ATTRIBUTE', `{${plugin}} lang= must be a language code such as ja or en`);
  return v;
}

/** A text in `lang`, else in the site's language, else in the first language it has; undefined when it has none. */
export function inLang<T>(byLang: Readonly<Record<string, T>>, lang: string, siteLang: string): T | undefined {
  if (Object.hasOwn(byLang, lang)) return byLang[lang];
  if (Object.hasOwn(byLang, siteLang)) return byLang[siteLang];
  const first = Object.keys(byLang)[0];
  return first === undefined ? undefined : byLang[first];
}

/**
 * The open rule (chk_open_flg, the API's lists and details): the open flag is set, the open date
 * (if any) has come and the close date (if any) has not, at the render's clock.
 */
export function isOpenAt(s: TopicState, now: number): boolean {
  return s.openFlg && (s.openFrom === null || s.openFrom <= now) && (s.openUntil === null || now < s.openUntil);
}

/** A positive integer ID given as a number or a string of digits; null otherwise. */
export function positiveId(v: Value): number | null {
  const n = typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v.trim()) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** A member of an array attribute (request_params, method_params), or null. */
export function param(arr: Value, key: string): Value {
  return arr instanceof PhpArray && arr.has(key) ? arr.get(key) : null;
}

/**
 * What the data families (content, members, tags...) read the same way: the `lang` attribute,
 * a text kept per language, and ID attributes. The language falls back to the render's site
 * language (call.render.lang), never the host's.
 */
import type { BridgeCall } from './plugin-contract.js';
import { BridgeError } from '../host-api/errors.js';
import type { Value } from '../value/value.js';

const LANG = /^[a-z]{2}$/;

/** The `lang` attribute: two lower-case letters, default the site's language. */
export function langAttr(plugin: string, v: Value, call: BridgeCall): string {
  if (v === undefined || v === null || v === '') return call.render.lang;
  if (typeof v !== 'string' || !LANG.test(v))
    throw new BridgeError('E_BAD_ATTRIBUTE', `{${plugin}} lang= must be a language code such as ja or en`);
  return v;
}

/** A text in `lang`, else in the site's language, else in the first language it has; undefined when it has none. */
export function inLang<T>(byLang: Readonly<Record<string, T>>, lang: string, siteLang: string): T | undefined {
  if (Object.hasOwn(byLang, lang)) return byLang[lang];
  if (Object.hasOwn(byLang, siteLang)) return byLang[siteLang];
  const first = Object.keys(byLang)[0];
  return first === undefined ? undefined : byLang[first];
}

/** A positive integer ID given as a number or a string of digits; null otherwise. */
export function positiveId(v: Value): number | null {
  const n = typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v.trim()) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

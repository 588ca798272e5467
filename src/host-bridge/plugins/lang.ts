/**
 * Which language a data plugin answers in, and a name in it: the `lang` attribute, else the
 * render's site language; a thing without a name in that language shows its name in the site's
 * language, and an empty string when it has neither (docs/decisions.md D60).
 */
import type { Value } from '../../value/value.js';
import type { BridgeCall } from '../plugin-contract.js';
import { BridgeError } from '../errors.js';

const LANG = /^[a-z]{2}$/;

export function langOf(attrs: Record<string, Value>, call: BridgeCall, plugin: string): string {
  const lang = attrs.lang;
  if (lang === undefined || lang === null || lang === '') return call.render.lang;
  if (typeof lang !== 'string' || !LANG.test(lang)) throw new BridgeError('E_BAD_ATTRIBUTE', `{${plugin}} lang= must be a two-letter language code such as ja or en`);
  return lang;
}

export function nameIn(names: Readonly<Record<string, string>>, lang: string, call: BridgeCall): string {
  if (Object.hasOwn(names, lang)) return names[lang]!;
  return Object.hasOwn(names, call.render.lang) ? names[call.render.lang]! : '';
}

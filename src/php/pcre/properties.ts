/**
 * Unicode properties for \p{..}: PCRE2 10.42 names (matched loosely: case, spaces,
 * hyphens and underscores ignored) mapped to JavaScript class syntax.
 *
 * Covered: general categories, L&, Any, the PCRE specials Xan Xps Xsp Xwd Xuc, and script
 * names (plain names use Script_Extensions as PCRE2 10.40+ does; `sc:` uses Script).
 * Binary properties, bidi classes and 4-letter script abbreviations are not mapped and
 * are reported as unsupported.
 */
import { PcreError } from './pcre-error.js';
import { lazy } from '../../value/lazy.js';

const CATEGORIES = [
  'C',
  'Cc',
  'Cf',
  'Cn',
  'Co',
  'Cs',
  'L',
  'Ll',
  'Lm',
  'Lo',
  'Lt',
  'Lu',
  'M',
  'Mc',
  'Me',
  'Mn',
  'N',
  'Nd',
  'Nl',
  'No',
  'P',
  'Pc',
  'Pd',
  'Pe',
  'Pf',
  'Pi',
  'Po',
  'Ps',
  'S',
  'Sc',
  'Sk',
  'Sm',
  'So',
  'Z',
  'Zl',
  'Zp',
  'Zs',
];

const SCRIPTS = `Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali
Bhaiksuki Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian Caucasian_Albanian Chakma Cham
Cherokee Chorasmian Common Coptic Cuneiform Cypriot Cypro_Minoan Cyrillic Deseret Devanagari Dives_Akuru Dogra
Duployan Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic Georgian Glagolitic Gothic Grantha Greek Gujarati
Gunjala_Gondi Gurmukhi Han Hangul Hanifi_Rohingya Hanunoo Hatran Hebrew Hiragana Imperial_Aramaic Inherited
Inscriptional_Pahlavi Inscriptional_Parthian Javanese Kaithi Kannada Katakana Kayah_Li Kharoshthi
Khitan_Small_Script Khmer Khojki Khudawadi Lao Latin Lepcha Limbu Linear_A Linear_B Lisu Lycian Lydian Mahajani
Makasar Malayalam Mandaic Manichaean Marchen Masaram_Gondi Medefaidrin Meetei_Mayek Mende_Kikakui
Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi Mongolian Mro Multani Myanmar Nabataean Nandinagari New_Tai_Lue
Newa Nko Nushu Nyiakeng_Puachue_Hmong Ogham Ol_Chiki Old_Hungarian Old_Italic Old_North_Arabian Old_Permic
Old_Persian Old_Sogdian Old_South_Arabian Old_Turkic Old_Uyghur Oriya Osage Osmanya Pahawh_Hmong Palmyrene
Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic Samaritan Saurashtra Sharada Shavian Siddham
SignWriting Sinhala Sogdian Sora_Sompeng Soyombo Sundanese Syloti_Nagri Syriac Tagalog Tagbanwa Tai_Le Tai_Tham
Tai_Viet Takri Tamil Tangsa Tangut Telugu Thaana Thai Tibetan Tifinagh Tirhuta Toto Ugaritic Vai Vithkuqi Wancho
Warang_Citi Yezidi Yi Zanabazar_Square`.split(/\s+/);

const loose = (s: string) => s.toLowerCase().replace(/[\s_-]/g, '');

/** Normalised key → JavaScript class body (usable inside `[...]` with the u flag). */
const table = lazy(() => {
  const t = new Map<string, string>();
  for (const c of CATEGORIES) t.set(loose(c), `\\p{${c}}`);
  t.set('l&', '\\p{LC}');
  t.set('any', '\\u{0}-\\u{10FFFF}');
  t.set('xan', '\\p{L}\\p{N}');
  t.set('xwd', '\\p{L}\\p{N}_');
  t.set('xps', '\\p{Z}\\t\\n\\x0b\\f\\r\\x85\\u180e');
  t.set('xsp', '\\p{Z}\\t\\n\\x0b\\f\\r\\x85\\u180e');
  t.set('xuc', '$@`\\u{A0}-\\u{D7FF}\\u{E000}-\\u{10FFFF}');
  for (const s of SCRIPTS) {
    t.set(loose(s), `\\p{Script_Extensions=${s}}`);
    t.set('sc:' + loose(s), `\\p{Script=${s}}`);
    t.set('scx:' + loose(s), `\\p{Script_Extensions=${s}}`);
  }
  return t;
});

/** The lookup key for a \p name, or a PcreError when the name is not one we translate. */
export function normalizePropertyName(name: string): string | null {
  const [prefix, rest] = name.includes(':') ? name.split(/:(.*)/s) : ['', name];
  const key = (prefix ? loose(prefix) + ':' : '') + loose(rest ?? '');
  const norm = key.replace(/^script:/, 'sc:').replace(/^scriptextensions:/, 'scx:');
  if (table().has(norm)) return norm;
  throw new PcreError(`unsupported regular expression feature: Unicode property \\p{${name}}`);
}

export function propertyClassBody(key: string): string {
  return table().get(key)!;
}

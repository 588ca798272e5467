import { defineModifier, type ModifierContext } from '../types.js';
import type { Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { fromBinary, toBinary } from '../../value/bytes.js';
import { replaceEach } from '../../value/replace-each.js';
import { isScalarOrNull, strArg } from '../../php/args.js';
import { type Charset, ENT_QUOTES, htmlCharset, htmlentities, htmlspecialchars } from '../../php/string/html.js';
import { rawurlencode } from '../../php/string/url.js';
import { strtrTable } from '../../php/string/strtr.js';

const perByte = (s: string, f: (byte: number) => string, what: string) =>
  replaceEach(toBinary(s), /[\s\S]/g, (ch) => f(ch.charCodeAt(0)), what);

const jsEscape = strtrTable(
  {
    '\\': '\\\\',
    "'": "\\'",
    '"': '\\"',
    '\r': '\\r',
    '\n': '\\n',
    '</': '<\\/',
  },
  'escape',
);

/** Smarty 2.6.33's escape types, each as PHP computes it. */
const TYPES: Record<string, (s: string, charset: string, ctx: ModifierContext) => string> = {
  html: (s, cs, ctx) =>
    htmlspecialchars(
      s,
      ENT_QUOTES,
      htmlCharset('htmlspecialchars', cs, (m) => ctx.warn(m)),
      true,
    ),
  htmlall: (s, cs, ctx) =>
    htmlentities(
      s,
      ENT_QUOTES,
      htmlCharset('htmlentities', cs, (m) => ctx.warn(m)),
      true,
    ),
  url: (s) => rawurlencode(s),
  urlpathinfo: (s) => replaceEach(rawurlencode(s), /%2F/g, () => '/', 'escape'),
  // preg_replace("%(?<!\\\\)'%", "\\'", $string): quotes not already preceded by a backslash
  quotes: (s) => replaceEach(s, /(?<!\\)'/g, () => "\\'", 'escape'),
  hex: (s) => perByte(s, (b) => '%' + b.toString(16).padStart(2, '0'), 'escape'),
  hexentity: (s) => perByte(s, (b) => `&#x${b.toString(16).padStart(2, '0')};`, 'escape'),
  decentity: (s) => perByte(s, (b) => `&#${b};`, 'escape'),
  javascript: (s) => jsEscape(s),
  mail: (s) => replaceEach(s, /[@.]/g, (c) => (c === '@' ? ' [AT] ' : ' [DOT] '), 'escape'),
  nonstd: (s) => fromBinary(perByte(s, (b) => (b >= 126 ? `&#${b};` : String.fromCharCode(b)), 'escape')),
};

/**
 * Smarty 2.6.33's escape with the platform's changes: the default char_set is UTF-8 (the
 * plugin reference and the platform docs; stock Smarty 2 defaults to ISO-8859-1, which turns
 * UTF-8 text into mojibake under htmlall), and null, arrays and objects give ''. Scalars are
 * converted to strings first (stock Smarty would index an integer for hex/decentity).
 */
export default defineModifier({
  kind: 'modifier',
  name: 'escape',
  origin: 'smarty',
  summary: 'Escapes for HTML, URLs, JavaScript, e-mail display or as entities (esc_type).',
  params: [
    { name: 'esc_type', type: 'string', default: 'html', known: Object.keys(TYPES) },
    { name: 'char_set', type: 'string', default: 'UTF-8' },
  ],
  examples: [
    {
      template: '{$h|escape}',
      vars: { h: '<a href=\'x\'>T&C "q"</a>' },
      output: '&lt;a href=&#039;x&#039;&gt;T&amp;C &quot;q&quot;&lt;/a&gt;',
    },
    { template: "{$h|escape:'htmlall'}", vars: { h: 'café <b>' }, output: 'caf&eacute; &lt;b&gt;' },
    {
      template: "{$u|escape:'url'}",
      vars: { u: '東京 タワー' },
      output: '%E6%9D%B1%E4%BA%AC%20%E3%82%BF%E3%83%AF%E3%83%BC',
    },
    { template: "{$s|escape:'javascript'}", vars: { s: "It's </script>\n" }, output: "It\\'s <\\/script>\\n" },
  ],
  run,
  // Literal arguments (`|escape`, `|escape:"url"`): the type's function and its charset chosen
  // once, so that a call does only the escaping. Values that are not strings take run()'s path
  // through the same function: null, arrays and objects give '', other scalars their string.
  prepare([escType, charSet]) {
    if (typeof escType !== 'string' || typeof charSet !== 'string') return undefined;
    const f = escapeOf(escType, charSet);
    if (f === undefined) return undefined;
    return (input, ctx) => {
      if (typeof input === 'string') return f(input, ctx);
      return input === null || input === undefined || !isScalarOrNull(input) ? '' : f(toStr(input), ctx);
    };
  },
});

/**
 * What run() calls for an escape type and char_set, with the charset resolved once; undefined
 * where run() must decide per call: an unknown type (the input comes back as it is), or a
 * charset that warns or throws on every call (htmlCharset).
 */
function escapeOf(type: string, charSet: string): ((s: string, ctx: ModifierContext) => string) | undefined {
  if (!Object.hasOwn(TYPES, type)) return undefined;
  if (type !== 'html' && type !== 'htmlall') {
    const f = TYPES[type]!;
    return (s, ctx) => f(s, charSet, ctx);
  }
  let quiet = true;
  let cs: Charset;
  try {
    cs = htmlCharset(type === 'html' ? 'htmlspecialchars' : 'htmlentities', charSet, () => (quiet = false));
  } catch {
    return undefined;
  }
  if (!quiet) return undefined;
  return type === 'html'
    ? (s) => htmlspecialchars(s, ENT_QUOTES, cs, true)
    : (s) => htmlentities(s, ENT_QUOTES, cs, true);
}

function run(input: Value, [escType, charSet]: Value[], ctx: ModifierContext): Value {
  if (!isScalarOrNull(input) || input === null || input === undefined) return '';
  const s = toStr(input);
  // An own key only: `constructor`, `toString`... are names of Object.prototype, not escape types.
  const type = toStr(escType);
  const f = Object.hasOwn(TYPES, type) ? TYPES[type] : undefined;
  return f ? f(s, strArg(charSet, 'htmlspecialchars', 3, 'encoding'), ctx) : input;
}

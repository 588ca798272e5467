import { defineFunction } from '../types.js';
import { PhpArray } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { LimitError, checkArrayLength } from '../../value/limits.js';
import { checkHtml5 } from '../../php/html5/checker.js';

/** Largest HTML checked, in characters. */
const MAX_HTML_LENGTH = 2 * 1024 * 1024;

/**
 * html5_check: var receives a list of problems, empty when the HTML is fine. Each problem is
 * an array `{line, column, code, message}`: line and column 1-based (column in characters,
 * CR LF counting as one line end), `code` a stable identifier (WHATWG's parse error name where
 * there is one), `message` an English sentence. The list is in document order; after 1000
 * problems the check stops and adds one `too-many-errors`.
 *
 * There is no PHP oracle: the checks are these, and only these.
 *
 * Tokenizer (WHATWG HTML §13.2.5, same names and conditions):
 * - input characters: `unexpected-null-character` (U+0000), `control-character-in-input-stream`
 *   (C0 and C1 controls other than tab, LF, FF, CR), `noncharacter-in-input-stream`, and
 *   `invalid-byte-sequence` (bytes that are not UTF-8; not a WHATWG name);
 * - `<`: `invalid-first-character-of-tag-name` (`<` or `</` not followed by a letter, e.g. `a < b`),
 *   `unexpected-question-mark-instead-of-tag-name` (`<?`), `eof-before-tag-name`, `missing-end-tag-name` (`</>`);
 * - tags: `eof-in-tag`, `unexpected-equals-sign-before-attribute-name`,
 *   `unexpected-character-in-attribute-name` (`"` `'` `<`), `missing-attribute-value` (`a=>`),
 *   `unexpected-character-in-unquoted-attribute-value` (`"` `'` `<` `=` backtick),
 *   `missing-whitespace-between-attributes`, `unexpected-solidus-in-tag`, `duplicate-attribute`
 *   (names compared case-insensitively), `end-tag-with-attributes`, `end-tag-with-trailing-solidus`,
 *   `non-void-html-element-start-tag-with-trailing-solidus` (`<div/>`; allowed inside svg/math);
 * - comments: `abrupt-closing-of-empty-comment`, `eof-in-comment`, `nested-comment`,
 *   `incorrectly-closed-comment` (`--!>`), `incorrectly-opened-comment` (`<!x`),
 *   `cdata-in-html-content` (`<![CDATA[` outside svg/math), `eof-in-cdata`;
 * - character references, in text, in attribute values and in title/textarea (not in
 *   script/style or comments): `unknown-named-character-reference` (`&foo;`),
 *   `missing-semicolon-after-character-reference` (`&copy 2024`, `&#65`; in attribute values a
 *   legacy name followed by `=` or a letter or digit is not a reference), `absence-of-digits-in-
 *   numeric-character-reference`, `null-character-reference`, `character-reference-outside-
 *   unicode-range`, `surrogate-character-reference`, `noncharacter-character-reference`,
 *   `control-character-reference`;
 * - DOCTYPE: `eof-in-doctype`; `non-conforming-doctype` (anything but `<!DOCTYPE html>`, any
 *   case, or its about:legacy-compat form); `unexpected-doctype` (a second one, or one after an
 *   element or text). A missing DOCTYPE is not reported: fragments are fine.
 *
 * Elements (a simplified tree builder, not the WHATWG one):
 * - `unknown-element`: a start tag whose name is not an HTML element and has no hyphen
 *   (custom elements such as `<my-card>` are fine); `obsolete-element` for the standard's
 *   obsolete list (center, font, marquee...). Names inside svg and math are not checked.
 * - Void elements (br, img, input...) are never open; `</br>` and the like are
 *   `end-tag-for-void-element`.
 * - A start tag first closes the current element when that element's end tag may be omitted
 *   before it (`<p>` before div, p, ul, table...; `<li>` before li; dt/dd; option/optgroup;
 *   table sections, rows and cells; head before body); this looks at the current element only.
 * - An end tag closes the innermost open element of that name: `stray-end-tag` when there is
 *   none; `misnested-end-tag` (reported at the end tag) for each element it closes on the way
 *   whose end tag is not optional (`<b><i>x</b>` reports that </b> closes <i>; the then-stray
 *   `</i>` is reported too).
 * - `unclosed-element`, reported at its start tag, for each element still open at the end
 *   whose end tag is not optional (html, head, body, p, li, dt, dd, rt, rp, option, optgroup,
 *   colgroup, caption, thead, tbody, tfoot, tr, td, th may stay open).
 * - script, style, xmp, iframe, noembed, noframes hold raw text up to their end tag; title
 *   and textarea too, but their character references are checked; plaintext takes the rest.
 */
export default defineFunction({
  kind: 'function',
  name: 'html5_check',
  summary:
    'Checks HTML5 syntax: var (default html5_errors) receives a list of problems, each {line, column, code, message}; an empty list when the HTML is fine.',
  attrs: {
    html: { type: 'string', required: true },
    var: { type: 'varname', default: 'html5_errors' },
  },
  examples: [
    { template: `{html5_check html='<p class="a">Hello <b>world</b></p>'}{$html5_errors|@count}`, output: '0' },
    {
      template: `{html5_check html='<div><span>x</div>' var=e}{foreach from=$e item=x}{$x.line}:{$x.column} {$x.code}{/foreach}`,
      output: '1:13 misnested-end-tag',
    },
    {
      template: `{html5_check html='<img src=a.png alt="" alt="">' var=e}{$e.0.code} at column {$e.0.column}`,
      output: 'duplicate-attribute at column 23',
    },
  ],
  run(attrs, ctx) {
    const html = toStr(attrs.html ?? '');
    if (html.length > MAX_HTML_LENGTH)
      throw new LimitError(`html5_check: the HTML has ${html.length} characters (limit ${MAX_HTML_LENGTH})`);
    const problems = checkHtml5(html);
    checkArrayLength(problems.length, 'html5_check');
    const list = problems.map((p) =>
      PhpArray.fromEntries([
        ['line', p.line],
        ['column', p.column],
        ['code', p.code],
        ['message', p.message],
      ]),
    );
    ctx.assign(toStr(attrs.var ?? 'html5_errors'), PhpArray.fromList(list));
  },
});

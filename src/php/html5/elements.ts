/**
 * What html5_check knows about HTML elements (WHATWG HTML, "Elements" index and §13.1.2).
 */

const set = (names: string): ReadonlySet<string> => new Set(names.split(' '));

/** The HTML element list (svg and math are the roots of foreign content). */
export const KNOWN_ELEMENTS = set(
  'a abbr address area article aside audio b base bdi bdo blockquote body br button canvas caption cite code col colgroup ' +
    'data datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 ' +
    'head header hgroup hr html i iframe img input ins kbd label legend li link main map mark math menu meta meter nav ' +
    'noscript object ol optgroup option output p picture pre progress q rp rt ruby s samp script search section select ' +
    'slot small source span strong style sub summary sup svg table tbody td template textarea tfoot th thead time title tr ' +
    'track u ul var video wbr',
);

/** Elements the standard lists as obsolete (§16.2); reported as such rather than as unknown. */
export const OBSOLETE_ELEMENTS = set(
  'acronym applet basefont bgsound big blink center dir font frame frameset image isindex keygen listing marquee menuitem ' +
    'multicol nextid nobr noembed noframes param plaintext rb rtc spacer strike tt xmp',
);

/** Void elements: no content, no end tag. */
export const VOID_ELEMENTS = set('area base br col embed hr img input link meta source track wbr');

/** Raw text: nothing inside is markup or a character reference, up to the matching end tag. */
export const RAW_TEXT_ELEMENTS = set('script style xmp iframe noembed noframes');

/** Escapable raw text: character references count, tags do not. */
export const RCDATA_ELEMENTS = set('textarea title');

/** Elements whose end tag may be omitted (§13.1.2.4): closing them implicitly is not an error. */
export const OPTIONAL_END_TAG = set(
  'html head body p li dt dd rt rp optgroup option colgroup caption thead tbody tfoot tr td th',
);

const P_CLOSERS =
  'address article aside blockquote details dialog div dl fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header ' +
  'hgroup hr main menu nav ol p pre search section table ul';

/**
 * When the current element is the key and one of these start tags comes, the current element
 * ends there (the omission rules of §13.1.2.4, applied to the current element only).
 */
export const CLOSED_BY_START_TAG: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['p', set(P_CLOSERS)],
  ['li', set('li')],
  ['dt', set('dt dd')],
  ['dd', set('dt dd')],
  ['rt', set('rt rp')],
  ['rp', set('rt rp')],
  ['option', set('option optgroup hr')],
  ['optgroup', set('optgroup hr')],
  ['colgroup', set('caption colgroup thead tbody tfoot tr')],
  ['caption', set('caption colgroup thead tbody tfoot tr')],
  ['thead', set('tbody tfoot')],
  ['tbody', set('tbody tfoot')],
  ['tr', set('tr tbody tfoot')],
  ['td', set('td th tr tbody tfoot')],
  ['th', set('td th tr tbody tfoot')],
  ['head', set('body')],
]);

/** Custom elements: a lowercase ASCII letter first and a hyphen somewhere (valid custom element names). */
export function isCustomElementName(name: string): boolean {
  return /^[a-z][^A-Z\s/>]*-[^A-Z\s/>]*$/.test(name);
}

/**
 * A strict XML 1.0 + Namespaces parser that accepts and rejects what libxml2 2.9 does with
 * the options simplexml_load_string() passes (none: no DTD loading, no entity
 * substitution, no recovery), and builds the tree libxml2 builds.
 *
 * What it does not do, on purpose (each case makes the parse fail, with a warning):
 * - DTDs: `<!DOCTYPE name>` and `<!DOCTYPE name SYSTEM|PUBLIC ...>` are read and ignored
 *   (the external subset is never fetched), but an internal subset with declarations
 *   (`<!DOCTYPE r [<!ENTITY ...>]>`) is refused, so entities are never declared, let alone
 *   expanded: no entity bombs, no external entities. libxml would accept such documents.
 * - References to undeclared entities are errors, as libxml makes them without a DTD (with
 *   an external subset libxml only warns and keeps an empty reference node).
 * - Encodings: the input is a template string, so UTF-8. A declaration naming ISO-8859-1,
 *   Windows-1252 or US-ASCII makes the UTF-8 bytes be read in that encoding, as libxml does
 *   (see encoding.ts). Other declared encodings (Shift_JIS, EUC-JP...), which libxml converts
 *   with iconv, are refused.
 *
 * Limits are libxml's own: 257 levels of elements, names of 50 000 bytes. The input size is
 * bounded by the caller.
 */
import { byteLength } from '../../value/bytes.js';
import { replaceEach } from '../../value/replace-each.js';
import { classifyEncoding, redecode } from './encoding.js';
import { NAME, NCNAME, NMTOKEN, firstInvalidChar, isBlank, isPubidChar, isXmlCharCode } from './chars.js';
import type { XmlAttr, XmlElement, XmlNode, XmlParseResult, XmlProblem } from './nodes.js';

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';

/** libxml's xmlParserMaxDepth: a start tag fails when more than this many elements are open (so 257 levels work). */
const MAX_OPEN_ELEMENTS = 256;
const MAX_NAME_BYTES = 50000;

const PREDEFINED = new Map([
  ['lt', '<'],
  ['gt', '>'],
  ['amp', '&'],
  ['apos', "'"],
  ['quot', '"'],
]);
/** Where character data stops: markup, a reference, or the forbidden `]]>`. */
const CHAR_DATA_END = /[<&]|\]\]>/g;

class Fatal extends Error {
  constructor(
    readonly at: number,
    message: string,
  ) {
    super(message);
  }
}

interface QName {
  prefix: string | null;
  local: string;
}

interface RawAttr extends QName {
  value: string;
}

interface OpenElement {
  el: XmlElement;
  /** The qualified name as written, which the end tag must repeat. */
  raw: string;
  /** Namespace bindings this element pushed. */
  nsCount: number;
}

/** Parses a whole document. Never throws for bad input: the result says what went wrong. */
export function parseXml(input: string): XmlParseResult {
  const p = new Parser(input);
  try {
    const root = p.parseDocument();
    return { ok: true, root, warnings: p.warnings };
  } catch (e) {
    if (e instanceof Fatal) return { ok: false, error: p.problem(e.at, e.message), warnings: p.warnings };
    throw e;
  }
}

class Parser {
  private s: string;
  private i = 0;
  /** In-scope namespace declarations, innermost last: [prefix (null: default), uri]. */
  private readonly ns: [string | null, string][] = [];
  readonly warnings: XmlProblem[] = [];

  constructor(input: string) {
    // A byte order mark is not content; line ends are normalised before anything else reads them.
    this.s = replaceEach(input.charCodeAt(0) === 0xfeff ? input.slice(1) : input, /\r\n?/g, () => '\n', 'xml');
  }

  problem(at: number, message: string): XmlProblem {
    let line = 1;
    let lineStart = 0;
    for (let k = this.s.indexOf('\n'); k !== -1 && k < at; k = this.s.indexOf('\n', k + 1)) {
      line++;
      lineStart = k + 1;
    }
    return { message, line, column: at - lineStart + 1 };
  }

  private fail(message: string, at = this.i): never {
    throw new Fatal(at, message);
  }

  private warn(message: string, at = this.i): void {
    this.warnings.push(this.problem(at, message));
  }

  private startsWith(t: string): boolean {
    return this.s.startsWith(t, this.i);
  }

  private skipBlanks(): number {
    const from = this.i;
    while (isBlank(this.s[this.i])) this.i++;
    return this.i - from;
  }

  private checkChars(start: number, end: number): void {
    const bad = firstInvalidChar(this.s, start, end);
    if (bad !== -1)
      this.fail(`invalid character U+${this.s.codePointAt(bad)!.toString(16).toUpperCase().padStart(4, '0')}`, bad);
  }

  private match(re: RegExp): string | null {
    re.lastIndex = this.i;
    const m = re.exec(this.s);
    if (!m) return null;
    const name = m[0];
    if (name.length * 3 > MAX_NAME_BYTES && byteLength(name) > MAX_NAME_BYTES) this.fail('name too long');
    this.i += name.length;
    return name;
  }

  parseDocument(): XmlElement {
    if (this.s === '') this.fail('Document is empty');
    if (this.startsWith('<?xml') && isBlank(this.s[this.i + 5])) this.parseXmlDecl();
    this.parseMisc();
    if (this.startsWith('<!DOCTYPE')) {
      this.parseDoctype();
      this.parseMisc();
    }
    if (this.s[this.i] !== '<') this.fail("Start tag expected, '<' not found");
    const root = this.parseElement();
    this.parseMisc();
    // libxml stops reading at a NUL after the root element.
    if (this.i < this.s.length && this.s[this.i] !== '\0') this.fail('Extra content at the end of the document');
    return root;
  }

  /** Comments, processing instructions and blanks around the root; their nodes are not kept. */
  private parseMisc(): void {
    for (;;) {
      this.skipBlanks();
      if (this.startsWith('<?')) this.parsePI();
      else if (this.startsWith('<!--')) this.parseComment();
      else return;
    }
  }

  private parseXmlDecl(): void {
    this.i += 5;
    this.skipBlanks();
    if (!this.startsWith('version')) this.fail('Malformed declaration expecting version');
    this.i += 7;
    const version = this.parseDeclValue(/[0-9]\.[0-9]*/y, 'version');
    if (version !== '1.0') {
      if (!version.startsWith('1.')) this.fail(`Unsupported version '${version}'`);
      this.warn(`Unsupported version '${version}'`);
    }
    if (!isBlank(this.s[this.i])) {
      if (this.startsWith('?>')) {
        this.i += 2;
        return;
      }
      this.fail('Blank needed here');
    }
    this.skipBlanks();
    let encoding: string | null = null;
    if (this.startsWith('encoding')) {
      this.i += 8;
      encoding = this.parseDeclValue(/[A-Za-z][A-Za-z0-9._-]*/y, 'encoding');
      // libxml reads UTF-8 and UTF-16 natively; any other name switches the input to a
      // converter, after which it wants a blank before `standalone`.
      const kind = classifyEncoding(encoding);
      if (kind !== 'native' && kind !== 'utf16' && !isBlank(this.s[this.i]) && !this.startsWith('?>'))
        this.fail('Blank needed here');
    }
    this.skipBlanks();
    if (this.startsWith('standalone')) {
      this.i += 10;
      this.parseDeclValue(/yes|no/y, 'standalone');
    }
    this.skipBlanks();
    if (!this.startsWith('?>')) this.fail("parsing XML declaration: '?>' expected");
    this.i += 2;
    if (encoding !== null) this.switchEncoding(encoding);
  }

  /** `S? = S? (" value " | ' value ')`, the value matching `re`. */
  private parseDeclValue(re: RegExp, what: string): string {
    this.skipBlanks();
    if (this.s[this.i] !== '=') this.fail(`'=' expected after ${what}`);
    this.i++;
    this.skipBlanks();
    const q = this.s[this.i];
    if (q !== '"' && q !== "'") this.fail(`${what}: " or ' expected`);
    this.i++;
    const v = this.match(re);
    if (v === null) this.fail(`invalid ${what} value`);
    if (this.s[this.i] !== q) this.fail(`String not closed expecting " or '`);
    this.i++;
    return v;
  }

  private switchEncoding(name: string): void {
    const kind = classifyEncoding(name);
    if (kind === null)
      this.fail(`unsupported encoding ${name} (UTF-8, ISO-8859-1, Windows-1252 and US-ASCII are read)`);
    if (kind === 'utf16') this.fail('Document labelled UTF-16 but has UTF-8 content');
    // The rest of the document is decoded from its UTF-8 bytes, as libxml decodes what it is given.
    if (kind !== 'native' && kind !== 'utf8') this.s = this.s.slice(0, this.i) + redecode(this.s.slice(this.i), kind);
  }

  private parseDoctype(): void {
    this.i += 9;
    this.skipBlanks();
    if (this.match(NAME) === null) this.fail('DOCTYPE: no name');
    this.skipBlanks();
    if (this.startsWith('SYSTEM')) {
      this.i += 6;
      if (!this.skipBlanks()) this.fail("Space required after 'SYSTEM'");
      this.parseLiteral(false);
    } else if (this.startsWith('PUBLIC')) {
      this.i += 6;
      if (!this.skipBlanks()) this.fail("Space required after 'PUBLIC'");
      this.parseLiteral(true);
      if (!this.skipBlanks()) this.fail('Space required after the Public Identifier');
      this.parseLiteral(false);
    }
    this.skipBlanks();
    if (this.s[this.i] === '[') {
      this.i++;
      this.skipBlanks();
      if (this.s[this.i] !== ']') this.fail('DTD internal subsets are not processed (entity declarations are refused)');
      this.i++;
      this.skipBlanks();
    }
    if (this.s[this.i] !== '>') this.fail('DOCTYPE improperly terminated');
    this.i++;
  }

  /** SystemLiteral, or PubidLiteral when `pubid`. */
  private parseLiteral(pubid: boolean): void {
    const q = this.s[this.i];
    if (q !== '"' && q !== "'") this.fail('System or Public ID: " or \' expected');
    const end = this.s.indexOf(q, this.i + 1);
    if (end === -1) this.fail('Unfinished System or Public ID');
    if (pubid) {
      for (let k = this.i + 1; k < end; k++)
        if (!isPubidChar(this.s[k])) this.fail('Unfinished System or Public ID', k);
    } else {
      this.checkChars(this.i + 1, end);
    }
    this.i = end + 1;
  }

  private parsePI(): XmlNode {
    const start = this.i;
    this.i += 2;
    const target = this.match(NAME);
    if (target === null) this.fail('PI: no target name');
    if (target.length === 3 && target.toLowerCase() === 'xml')
      this.fail('XML declaration allowed only at the start of the document', start);
    if (target.includes(':')) this.warn(`colons are forbidden from PI names '${target}'`, start);
    if (this.startsWith('?>')) {
      this.i += 2;
      return { kind: 'pi', target, data: '' };
    }
    if (!this.skipBlanks()) this.fail(`PI ${target} space expected`);
    const end = this.s.indexOf('?>', this.i);
    if (end === -1) this.fail(`PI ${target} never end ...`, start);
    this.checkChars(this.i, end);
    const data = this.s.slice(this.i, end);
    this.i = end + 2;
    return { kind: 'pi', target, data };
  }

  private parseComment(): XmlNode {
    const start = this.i;
    this.i += 4;
    const dashes = this.s.indexOf('--', this.i);
    if (dashes === -1) this.fail('Comment not terminated', start);
    this.checkChars(this.i, dashes);
    if (this.s[dashes + 2] !== '>') this.fail('Double hyphen within comment', dashes);
    const value = this.s.slice(this.i, dashes);
    this.i = dashes + 3;
    return { kind: 'comment', value };
  }

  private parseCData(): string {
    const start = this.i;
    this.i += 9;
    const end = this.s.indexOf(']]>', this.i);
    if (end === -1) this.fail('CData section not finished', start);
    this.checkChars(this.i, end);
    const value = this.s.slice(this.i, end);
    this.i = end + 3;
    return value;
  }

  /** libxml's xmlParseQName, including how it recovers from `a:`, `:a` and `a:b:c`. */
  private parseQName(): QName | null {
    const start = this.i;
    const l = this.match(NCNAME);
    if (l === null) {
      if (this.s[this.i] === ':') {
        const name = this.match(NAME);
        if (name !== null) {
          this.warn(`Failed to parse QName '${name}'`, start);
          return { prefix: null, local: name };
        }
      }
      return null;
    }
    if (this.s[this.i] !== ':') return { prefix: null, local: l };
    this.i++;
    const local = this.match(NCNAME);
    if (local === null) {
      this.warn(`Failed to parse QName '${l}:'`, start);
      const rest = this.match(NMTOKEN);
      return { prefix: null, local: `${l}:${rest ?? ''}` };
    }
    if (this.s[this.i] === ':') {
      this.warn(`Failed to parse QName '${l}:${local}:'`, start);
      this.i++;
      const rest = this.match(NAME);
      return { prefix: l, local: `${local}:${rest ?? ''}` };
    }
    return { prefix: l, local };
  }

  private lookupNs(prefix: string | null): string | null {
    if (prefix === 'xml') return XML_NAMESPACE;
    for (let k = this.ns.length - 1; k >= 0; k--) {
      if (this.ns[k][0] === prefix) return prefix === null && this.ns[k][1] === '' ? null : this.ns[k][1];
    }
    return null;
  }

  private parseElement(): XmlElement {
    const first = this.parseStartTag(0);
    if (first.empty) return first.open.el;
    const stack: OpenElement[] = [first.open];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const children = top.el.children;
      const c = this.s[this.i];
      if (c === undefined) this.fail(`Premature end of data in tag ${top.raw}`);
      if (c === '<') {
        const next = this.s[this.i + 1];
        if (next === '?') children.push(this.parsePI());
        else if (this.startsWith('<![CDATA[')) appendCData(children, this.parseCData());
        else if (this.startsWith('<!--')) children.push(this.parseComment());
        else if (next === '/') {
          this.parseEndTag(top.raw);
          this.ns.length -= top.nsCount;
          stack.pop();
        } else {
          const t = this.parseStartTag(stack.length);
          children.push(t.open.el);
          if (t.empty) this.ns.length -= t.open.nsCount;
          else stack.push(t.open);
        }
      } else if (c === '&') {
        appendText(children, this.parseReference());
      } else {
        appendText(children, this.parseCharData());
      }
    }
    return first.open.el;
  }

  private parseEndTag(raw: string): void {
    const start = this.i;
    this.i += 2;
    const after = this.s[this.i + raw.length];
    if (!this.startsWith(raw) || !(after === '>' || isBlank(after)))
      this.fail(`Opening and ending tag mismatch: ${raw}`, start);
    this.i += raw.length;
    this.skipBlanks();
    if (this.s[this.i] !== '>') this.fail("expected '>'");
    this.i++;
  }

  private parseStartTag(openCount: number): { open: OpenElement; empty: boolean } {
    const start = this.i;
    if (openCount > MAX_OPEN_ELEMENTS)
      this.fail(`Excessive depth in document: ${MAX_OPEN_ELEMENTS} use XML_PARSE_HUGE option`);
    this.i++;
    const q = this.parseQName();
    if (q === null) this.fail('StartTag: invalid element name');
    const raw = this.s.slice(start + 1, this.i);
    this.skipBlanks();
    const attrs: RawAttr[] = [];
    let nsCount = 0;
    for (;;) {
      const c = this.s[this.i];
      if (c === '>' || (c === '/' && this.s[this.i + 1] === '>') || c === undefined || c === '\0') break;
      const at = this.i;
      const a = this.parseQName();
      if (a === null) this.fail('error parsing attribute name');
      this.skipBlanks();
      if (this.s[this.i] !== '=') this.fail(`Specification mandates value for attribute ${a.local}`);
      this.i++;
      this.skipBlanks();
      const value = this.parseAttValue();
      if (a.prefix === null && a.local === 'xmlns') nsCount += this.declareNs(null, value, nsCount, at);
      else if (a.prefix === 'xmlns') nsCount += this.declareNs(a.local, value, nsCount, at);
      else attrs.push({ prefix: a.prefix, local: a.local, value });
      const d = this.s[this.i];
      if (d === '>' || (d === '/' && this.s[this.i + 1] === '>')) break;
      if (!this.skipBlanks()) this.fail('attributes construct error');
    }
    let empty: boolean;
    if (this.startsWith('/>')) {
      this.i += 2;
      empty = true;
    } else if (this.s[this.i] === '>') {
      this.i++;
      empty = false;
    } else {
      this.fail(`Couldn't find end of Start Tag ${raw}`);
    }
    const el: XmlElement = {
      kind: 'element',
      ...this.resolve(q, start, true),
      attrs: this.resolveAttrs(attrs, start),
      children: [],
    };
    return { open: { el, raw, nsCount }, empty };
  }

  /**
   * One `xmlns` or `xmlns:p` attribute: the checks of libxml's xmlParseStartTag2. Returns 1
   * when a binding was pushed. The namespace errors are warnings; a repeated declaration is fatal.
   */
  private declareNs(prefix: string | null, uri: string, declaredHere: number, at: number): number {
    const label = prefix === null ? 'xmlns' : `xmlns:${prefix}`;
    if (prefix === 'xml') {
      if (uri !== XML_NAMESPACE) this.warn('xml namespace prefix mapped to wrong URI', at);
      return 0;
    }
    if (uri === XML_NAMESPACE) {
      this.warn(
        prefix === null
          ? 'xml namespace URI cannot be the default namespace'
          : 'xml namespace URI mapped to wrong prefix',
        at,
      );
      return 0;
    }
    if (prefix === 'xmlns') {
      this.warn('redefinition of the xmlns prefix is forbidden', at);
      return 0;
    }
    if (uri === XMLNS_NAMESPACE) {
      this.warn('reuse of the xmlns namespace name is forbidden', at);
      return 0;
    }
    if (prefix !== null && uri === '') {
      this.warn(`xmlns:${prefix}: Empty XML namespace is not allowed`, at);
      return 0;
    }
    for (let k = this.ns.length - declaredHere; k < this.ns.length; k++) {
      if (this.ns[k][0] === prefix) this.fail(`Attribute ${label} redefined`, at);
    }
    this.ns.push([prefix, uri]);
    return 1;
  }

  /** An element or attribute name against the bindings in scope; unbound prefixes stay in the name. */
  private resolve(
    q: QName,
    at: number,
    isElement: boolean,
  ): { name: string; prefix: string | null; nsUri: string | null } {
    if (q.prefix === null) {
      return { name: q.local, prefix: null, nsUri: isElement ? this.lookupNs(null) : null };
    }
    const uri = this.lookupNs(q.prefix);
    if (uri === null) {
      this.warn(`Namespace prefix ${q.prefix} on ${q.local} is not defined`, at);
      return { name: `${q.prefix}:${q.local}`, prefix: null, nsUri: null };
    }
    return { name: q.local, prefix: q.prefix, nsUri: uri };
  }

  private resolveAttrs(raw: RawAttr[], at: number): XmlAttr[] {
    const out: XmlAttr[] = [];
    for (let k = 0; k < raw.length; k++) {
      const a = raw[k];
      const r = this.resolve(a, at, false);
      for (let j = 0; j < k; j++) {
        if (raw[j].local !== a.local) continue;
        if (raw[j].prefix === a.prefix)
          this.fail(`Attribute ${a.prefix === null ? '' : a.prefix + ':'}${a.local} redefined`, at);
        if (r.nsUri !== null && out[j].nsUri === r.nsUri) {
          this.warn(`Namespaced Attribute ${a.local} in '${r.nsUri}' redefined`, at);
          break;
        }
      }
      out.push({ ...r, value: a.value });
    }
    return out;
  }

  private parseAttValue(): string {
    const q = this.s[this.i];
    if (q !== '"' && q !== "'") this.fail(`AttValue: " or ' expected`);
    this.i++;
    const stop = q === '"' ? /["<&\t\n]/g : /['<&\t\n]/g;
    let out = '';
    for (;;) {
      stop.lastIndex = this.i;
      const m = stop.exec(this.s);
      const end = m ? m.index : this.s.length;
      this.checkChars(this.i, end);
      out += this.s.slice(this.i, end);
      this.i = end;
      if (!m) this.fail(`AttValue: ${q} expected`);
      const c = m[0];
      if (c === q) {
        this.i++;
        return out;
      }
      if (c === '<') this.fail("Unescaped '<' not allowed in attributes values");
      if (c === '&') {
        out += this.parseReference();
      } else {
        // Attribute-value normalisation: each literal blank is a space (references keep theirs).
        out += ' ';
        this.i++;
      }
    }
  }

  /** `&#N;`, `&#xH;` or one of the five predefined entities. */
  private parseReference(): string {
    const start = this.i;
    if (this.s[this.i + 1] === '#') {
      const hex = this.s[this.i + 2] === 'x';
      const re = hex ? /&#x([0-9a-fA-F]*);/y : /&#([0-9]*);/y;
      re.lastIndex = this.i;
      const m = re.exec(this.s);
      if (!m) this.fail(hex ? 'CharRef: invalid hexadecimal value' : 'CharRef: invalid decimal value');
      let v = 0;
      for (const d of m[1]) v = Math.min(v * (hex ? 16 : 10) + parseInt(d, 16), 0x110000);
      if (v >= 0x110000) this.fail('xmlParseCharRef: character reference out of bounds', start);
      if (!isXmlCharCode(v)) this.fail(`xmlParseCharRef: invalid xmlChar value ${v}`, start);
      this.i += m[0].length;
      return String.fromCodePoint(v);
    }
    this.i++;
    const name = this.match(NAME);
    if (name === null) this.fail('xmlParseEntityRef: no name');
    if (this.s[this.i] !== ';') this.fail("EntityRef: expecting ';'");
    this.i++;
    const ch = PREDEFINED.get(name);
    if (ch === undefined) this.fail(`Entity '${name}' not defined`, start);
    return ch;
  }

  private parseCharData(): string {
    const start = this.i;
    CHAR_DATA_END.lastIndex = start;
    const m = CHAR_DATA_END.exec(this.s);
    const end = m ? m.index : this.s.length;
    if (m && m[0] === ']]>') this.fail("Sequence ']]>' not allowed in content", end);
    this.checkChars(start, end);
    this.i = end;
    return this.s.slice(start, end);
  }
}

/** libxml merges character data into the previous text node. */
function appendText(children: XmlNode[], value: string): void {
  const last = children[children.length - 1];
  if (last !== undefined && last.kind === 'text') last.value += value;
  else children.push({ kind: 'text', value });
}

/** ...and a CDATA section into a CDATA section right before it. */
function appendCData(children: XmlNode[], value: string): void {
  const last = children[children.length - 1];
  if (last !== undefined && last.kind === 'cdata') last.value += value;
  else children.push({ kind: 'cdata', value });
}

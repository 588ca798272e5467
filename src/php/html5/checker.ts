/**
 * html5_check's validator: WHATWG HTML's tokenizer errors, plus a simplified tree check
 * (which elements are open when). The rules are listed in src/plugins/markup/html5_check.ts.
 */
import { countMatches } from '../../value/count-matches.js';
import { replaceEach } from '../../value/replace-each.js';
import { checkCharRef } from './char-refs.js';
import { scanComment } from './comment.js';
import {
  CLOSED_BY_START_TAG,
  KNOWN_ELEMENTS,
  OBSOLETE_ELEMENTS,
  OPTIONAL_END_TAG,
  RAW_TEXT_ELEMENTS,
  RCDATA_ELEMENTS,
  VOID_ELEMENTS,
  isCustomElementName,
} from './elements.js';

export interface Html5Problem {
  line: number;
  /** 1-based, in characters (code points). */
  column: number;
  code: string;
  message: string;
}

/** Beyond this many problems the check stops and says so. */
export const MAX_PROBLEMS = 1000;

interface Found {
  at: number;
  code: string;
  message: string;
}

interface Open {
  name: string;
  at: number;
  /** Inside <svg> or <math> (the root included): names are not checked, `/>` closes. */
  foreign: boolean;
}

interface Attr {
  name: string;
  at: number;
}

const TAG_NAME = /[^\t\n\f />]*/y;
const ATTR_NAME = /[^\t\n\f />=]*/y;
const UNQUOTED_VALUE = /[^\t\n\f >]*/y;
const SPACE = /[\t\n\f ]*/y;

function skipSpace(s: string, i: number): number {
  SPACE.lastIndex = i;
  return i + SPACE.exec(s)![0].length;
}

class Full extends Error {}

/** All problems, in document order. Never throws on any input. */
export function checkHtml5(input: string): Html5Problem[] {
  const c = new Checker(replaceEach(input, /\r\n?/g, () => '\n', 'html5_check'));
  let full = false;
  try {
    c.run();
  } catch (e) {
    if (!(e instanceof Full)) throw e;
    full = true;
  }
  const found = c.found.slice().sort((a, b) => a.at - b.at);
  if (full)
    found.push({
      at: c.s.length,
      code: 'too-many-errors',
      message: `the check stopped after ${MAX_PROBLEMS} problems`,
    });
  const pos = new Positions(c.s);
  return found.map((f) => ({ ...pos.of(f.at), code: f.code, message: f.message }));
}

class Checker {
  readonly found: Found[] = [];
  private i = 0;
  private readonly stack: Open[] = [];
  /** An element or non-blank text came before (a DOCTYPE must come first). */
  private content = false;
  private doctype = false;

  constructor(readonly s: string) {}

  private report(at: number, code: string, message: string): void {
    if (this.found.length >= MAX_PROBLEMS) throw new Full();
    this.found.push({ at, code, message });
  }

  run(): void {
    this.scanStream();
    const s = this.s;
    while (this.i < s.length) {
      const lt = s.indexOf('<', this.i);
      const end = lt === -1 ? s.length : lt;
      this.text(this.i, end, true);
      this.i = end;
      if (lt !== -1) this.markup(lt);
    }
    for (const o of this.stack) {
      // <plaintext> cannot be closed: everything after it is its text.
      if ((o.foreign || !OPTIONAL_END_TAG.has(o.name)) && o.name !== 'plaintext')
        this.report(o.at, 'unclosed-element', `<${o.name}> is never closed`);
    }
  }

  /** Characters that are errors wherever they are (§13.2.3.5). */
  private scanStream(): void {
    const re =
      /(\x00)|([\x01-\x08\x0B\x0E-\x1F\x7F-\x9F])|([\uFDD0-\uFDEF\uFFFE\uFFFF]|[\uD83F\uD87F\uD8BF\uD8FF\uD93F\uD97F\uD9BF\uD9FF\uDA3F\uDA7F\uDABF\uDAFF\uDB3F\uDB7F\uDBBF\uDBFF][\uDFFE\uDFFF])|([\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/g;
    for (let m = re.exec(this.s); m !== null; m = re.exec(this.s)) {
      const u = `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      if (m[1] !== undefined) this.report(m.index, 'unexpected-null-character', 'NUL character');
      else if (m[2] !== undefined) this.report(m.index, 'control-character-in-input-stream', `control character ${u}`);
      else if (m[3] !== undefined) this.report(m.index, 'noncharacter-in-input-stream', `noncharacter ${u}`);
      else this.report(m.index, 'invalid-byte-sequence', 'bytes that are not UTF-8');
    }
  }

  /** Text: character references (unless raw), and whether content has started. */
  private text(from: number, to: number, refs: boolean): void {
    if (!this.content && /[^\t\n\f ]/.test(this.s.slice(from, to))) this.content = true;
    if (!refs) return;
    for (let amp = this.s.indexOf('&', from); amp !== -1 && amp < to; amp = this.s.indexOf('&', amp + 1)) {
      const p = checkCharRef(this.s, amp, false);
      if (p) this.report(amp, p.code, p.message);
    }
  }

  /** At a `<`. */
  private markup(at: number): void {
    const s = this.s;
    const c = s[at + 1];
    if (c === '!') return this.declaration(at);
    if (c === '/') return this.endTagOpen(at);
    if (c !== undefined && /[A-Za-z]/.test(c)) return this.tag(at, at + 1, false);
    if (c === '?') {
      this.report(
        at,
        'unexpected-question-mark-instead-of-tag-name',
        "'<?' is not HTML (processing instructions are bogus comments)",
      );
      return this.bogusComment(at + 1);
    }
    if (c === undefined) this.report(at, 'eof-before-tag-name', "'<' at the end of the input (write &lt;)");
    else this.report(at, 'invalid-first-character-of-tag-name', "'<' not followed by a tag name (write &lt;)");
    this.content = true;
    this.i = at + 1;
  }

  private endTagOpen(at: number): void {
    const c = this.s[at + 2];
    if (c !== undefined && /[A-Za-z]/.test(c)) return this.tag(at, at + 2, true);
    if (c === '>') {
      this.report(at, 'missing-end-tag-name', "'</>' has no tag name");
      this.i = at + 3;
    } else if (c === undefined) {
      this.report(at, 'eof-before-tag-name', "'</' at the end of the input");
      this.i = this.s.length;
    } else {
      this.report(at, 'invalid-first-character-of-tag-name', "'</' not followed by a tag name");
      this.bogusComment(at + 2);
    }
  }

  private bogusComment(from: number): void {
    const gt = this.s.indexOf('>', from);
    this.i = gt === -1 ? this.s.length : gt + 1;
  }

  private declaration(at: number): void {
    const s = this.s;
    if (s.startsWith('<!--', at)) {
      const r = scanComment(s, at + 4, at);
      for (const e of r.errors) this.report(e.at, e.code, e.message);
      this.i = r.end;
    } else if (s.slice(at + 2, at + 9).toLowerCase() === 'doctype') {
      this.doctypeDecl(at);
    } else if (s.startsWith('[CDATA[', at + 2)) {
      const top = this.stack[this.stack.length - 1];
      if (top?.foreign) {
        const end = s.indexOf(']]>', at + 9);
        if (end === -1) this.report(at, 'eof-in-cdata', 'CDATA section not closed with ]]>');
        this.i = end === -1 ? s.length : end + 3;
      } else {
        this.report(at, 'cdata-in-html-content', 'CDATA sections are only allowed inside <svg> and <math>');
        this.bogusComment(at + 2);
      }
    } else {
      this.report(at, 'incorrectly-opened-comment', "'<!' not followed by '--' or DOCTYPE");
      this.bogusComment(at + 2);
    }
  }

  private doctypeDecl(at: number): void {
    const gt = this.s.indexOf('>', at + 9);
    if (gt === -1) {
      this.report(at, 'eof-in-doctype', 'DOCTYPE not closed with >');
      this.i = this.s.length;
      return;
    }
    const body = replaceEach(this.s.slice(at + 9, gt).trim(), /[\t\n\f ]+/g, () => ' ', 'html5_check').toLowerCase();
    if (this.doctype || this.content || this.stack.length > 0) {
      this.report(at, 'unexpected-doctype', 'a DOCTYPE is only allowed once, before everything else');
    } else if (
      body !== 'html' &&
      body !== 'html system "about:legacy-compat"' &&
      body !== "html system 'about:legacy-compat'"
    ) {
      this.report(at, 'non-conforming-doctype', 'the DOCTYPE of HTML is <!DOCTYPE html>');
    }
    this.doctype = true;
    this.i = gt + 1;
  }

  /** A start or end tag whose name starts at `nameAt`. */
  private tag(at: number, nameAt: number, isEnd: boolean): void {
    const s = this.s;
    TAG_NAME.lastIndex = nameAt;
    let i = nameAt + TAG_NAME.exec(s)![0].length;
    const name = s.slice(nameAt, i).toLowerCase();
    const attrs = new Set<string>();
    let selfClosing = false;
    for (;;) {
      i = skipSpace(s, i);
      const c = s[i];
      if (c === undefined) return this.eofInTag(at);
      if (c === '>') {
        i++;
        break;
      }
      if (c === '/') {
        i++;
        if (s[i] === '>') {
          selfClosing = true;
          i++;
          break;
        }
        this.report(i - 1, 'unexpected-solidus-in-tag', "'/' inside a tag that it does not close");
        continue;
      }
      const r = this.attribute(i);
      if (r === null) return this.eofInTag(at);
      i = r.next;
      if (attrs.has(r.attr.name))
        this.report(r.attr.at, 'duplicate-attribute', `attribute ${r.attr.name} appears twice`);
      else attrs.add(r.attr.name);
    }
    this.i = i;
    if (isEnd) {
      if (attrs.size > 0) this.report(at, 'end-tag-with-attributes', `end tag </${name}> has attributes`);
      if (selfClosing) this.report(at, 'end-tag-with-trailing-solidus', `end tag </${name}/> ends with '/'`);
      this.endTag(name, at);
    } else {
      this.startTag(name, at, selfClosing);
    }
  }

  private eofInTag(at: number): void {
    this.report(at, 'eof-in-tag', 'tag not closed with >');
    this.i = this.s.length;
  }

  /** One attribute from its first character; null at the end of the input. */
  private attribute(start: number): { attr: Attr; next: number } | null {
    const s = this.s;
    let i = start;
    if (s[i] === '=') {
      this.report(i, 'unexpected-equals-sign-before-attribute-name', "'=' where an attribute name should start");
      i++;
    }
    ATTR_NAME.lastIndex = i;
    const nameEnd = i + ATTR_NAME.exec(s)![0].length;
    for (; i < nameEnd; i++) {
      if (s[i] === '"' || s[i] === "'" || s[i] === '<')
        this.report(i, 'unexpected-character-in-attribute-name', `${s[i]} in an attribute name`);
    }
    const attr = { name: s.slice(start, i).toLowerCase(), at: start };
    let j = skipSpace(s, i);
    if (s[j] !== '=') return { attr, next: i };
    j = skipSpace(s, j + 1);
    const q = s[j];
    if (q === undefined) return null;
    if (q === '>') {
      this.report(j, 'missing-attribute-value', `attribute ${attr.name} has '=' but no value`);
      return { attr, next: j };
    }
    if (q === '"' || q === "'") {
      const close = s.indexOf(q, j + 1);
      if (close === -1) return null;
      this.attributeRefs(j + 1, close);
      const after = s[close + 1];
      if (after !== undefined && !/[\t\n\f />]/.test(after))
        this.report(close + 1, 'missing-whitespace-between-attributes', 'attributes must be separated by whitespace');
      return { attr, next: close + 1 };
    }
    UNQUOTED_VALUE.lastIndex = j;
    const k = j + UNQUOTED_VALUE.exec(s)![0].length;
    for (let m = j; m < k; m++) {
      if (/["'<=`]/.test(s[m]))
        this.report(
          m,
          'unexpected-character-in-unquoted-attribute-value',
          `${s[m]} in an unquoted attribute value (quote the value)`,
        );
    }
    this.attributeRefs(j, k);
    return { attr, next: k };
  }

  private attributeRefs(from: number, to: number): void {
    for (let amp = this.s.indexOf('&', from); amp !== -1 && amp < to; amp = this.s.indexOf('&', amp + 1)) {
      const p = checkCharRef(this.s, amp, true);
      if (p) this.report(amp, p.code, p.message);
    }
  }

  private startTag(name: string, at: number, selfClosing: boolean): void {
    const top = this.stack[this.stack.length - 1];
    this.content = true;
    if (top?.foreign || name === 'svg' || name === 'math') {
      if (!selfClosing) this.stack.push({ name, at, foreign: true });
      return;
    }
    if (OBSOLETE_ELEMENTS.has(name)) this.report(at, 'obsolete-element', `<${name}> is obsolete in HTML5`);
    else if (!KNOWN_ELEMENTS.has(name) && !isCustomElementName(name))
      this.report(at, 'unknown-element', `<${name}> is not an HTML element`);
    const isVoid = VOID_ELEMENTS.has(name);
    if (selfClosing && !isVoid)
      this.report(
        at,
        'non-void-html-element-start-tag-with-trailing-solidus',
        `<${name}/>: '/>' does not close a non-void element`,
      );
    for (
      let cur = this.stack[this.stack.length - 1];
      cur && !cur.foreign && CLOSED_BY_START_TAG.get(cur.name)?.has(name);
      cur = this.stack[this.stack.length - 1]
    ) {
      this.stack.pop();
    }
    if (isVoid) return;
    this.stack.push({ name, at, foreign: false });
    this.skipRawContent(name);
  }

  /** After the start tag of script, style, textarea, title...: up to the matching end tag. */
  private skipRawContent(name: string): void {
    const raw = RAW_TEXT_ELEMENTS.has(name);
    if (!raw && !RCDATA_ELEMENTS.has(name) && name !== 'plaintext') return;
    const end = name === 'plaintext' ? null : new RegExp(`</${name}(?=[\\t\\n\\f />])`, 'ig');
    let stop = this.s.length;
    if (end) {
      end.lastIndex = this.i;
      const m = end.exec(this.s);
      if (m) stop = m.index;
    }
    this.text(this.i, stop, !raw && name !== 'plaintext');
    this.i = stop;
  }

  private endTag(name: string, at: number): void {
    const top = this.stack[this.stack.length - 1];
    if (!top?.foreign && VOID_ELEMENTS.has(name)) {
      this.report(at, 'end-tag-for-void-element', `<${name}> is void and has no end tag`);
      return;
    }
    let k = this.stack.length - 1;
    while (k >= 0 && this.stack[k].name !== name) k--;
    if (k < 0) {
      this.report(at, 'stray-end-tag', `end tag </${name}> without an open <${name}>`);
      return;
    }
    for (let j = this.stack.length - 1; j > k; j--) {
      const o = this.stack[j];
      if (o.foreign || !OPTIONAL_END_TAG.has(o.name))
        this.report(at, 'misnested-end-tag', `</${name}> closes <${o.name}>, which is still open`);
    }
    this.stack.length = k;
  }
}

/** Offsets to 1-based line and column (in code points). */
class Positions {
  private readonly starts: number[] = [0];
  constructor(private readonly s: string) {
    for (let k = s.indexOf('\n'); k !== -1; k = s.indexOf('\n', k + 1)) this.starts.push(k + 1);
  }

  of(at: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    const prefix = this.s.slice(this.starts[lo], at);
    const pairs = countMatches(prefix, /[\uD800-\uDBFF][\uDC00-\uDFFF]/g);
    return { line: lo + 1, column: prefix.length - pairs + 1 };
  }
}

/**
 * XML documents for the xmltojson oracle: hand-written edge cases, seeded random trees, and
 * random one-character damage to those trees (so that rejection is compared too).
 */
import { Random } from '../../../src/runtime/random.js';

/** A document as text, or as raw bytes (for invalid UTF-8 and Latin-1 input). */
export type XmlCase = string | { bytes: number[] };

export const HAND_WRITTEN: XmlCase[] = [
  // text, attributes, empty elements, repeats, mixed content
  '<a>hello</a>',
  '<a x="1">t</a>',
  '<r><a x="1">t</a></r>',
  '<r/>',
  '<r></r>',
  '<r>  </r>',
  '<r>\t\n</r>',
  '<r><a>1</a><a>2</a><b/><a>3</a></r>',
  '<r><a>x</a><a><b>1</b><b>2</b></a></r>',
  '<r><a/><a/></r>',
  '<r><a>x<b>y</b>z</a></r>',
  '<r>x<a/></r>',
  '<r><a/>x</r>',
  '<r><a>  </a><b> x </b></r>',
  '<r><a> <b>1</b></a></r>',
  '<r><a><b>1</b>x</a></r>',
  '<r a="1" b="2"><c d="3"/><c>4</c></r>',
  '<r><a x="1"><b>2</b></a></r>',
  '<r><a>0</a><b>1.5</b><c>true</c><d>null</d><e>-0</e><f>1e3</f></r>',
  '<r><n>007</n></r>',
  '<r>a&amp;b&#65;&#x42;</r>',
  '<r a="&amp;&lt;&gt;&quot;&apos;"/>',
  '<r>&lt;tag&gt;</r>',
  '<r a=\'"\' b="\'"/>',
  '<r><a>/é€😀</a></r>',
  '<r>日本語<x/></r>',
  '<r><名前>値</名前></r>',
  '<é/>',
  '<r><a·b/></r>',
  '<r><a-b.c_d>1</a-b.c_d></r>',
  '<r><xmlfoo/></r>',
  '<r>\ufeff</r>',
  '\ufeff<r/>',
  '<r>\ud7ff\ue000\ufffd</r>',
  '<r>&#1114111;</r>',
  '<r>&#x10FFFF;&#0065;&#x00041;</r>',
  '<r a="x&#10;y\tz"/>',
  '<r a="x\r\ny"/>',
  '<r a="&#13;&#9;"/>',
  '<r>a\r\nb</r>',
  '<r>x\ry</r>',
  '<r><a></a>\r\n</r>',
  '<r a="  two  spaces "/>',
  // comments, processing instructions, CDATA
  '<r><!--c--><a/><?pi data?></r>',
  '<r>x<!--c-->y</r>',
  '<r><a>x<!--c-->y</a></r>',
  '<r><comment>x</comment><!--c--></r>',
  '<r><!----></r>',
  '<r><!-- - --></r>',
  '<r><!--a-b--></r>',
  '<r><?pi?></r>',
  '<r><?pi\tx?></r>',
  '<r><?pix?></r>',
  '<r><?xml-stylesheet a?></r>',
  '<r><?xmlfoo a?></r>',
  '<r><?a:b x?></r>',
  '<r><?pi x?><?pi y?></r>',
  '<r><a><![CDATA[x]]></a></r>',
  '<r><![CDATA[x]]></r>',
  '<r><a>x<![CDATA[y]]>z</a></r>',
  '<r><![CDATA[]]></r>',
  '<r><a><![CDATA[]]></a></r>',
  '<r><a><![CDATA[ ]]>x</a></r>',
  '<r><a>x<![CDATA[ ]]></a></r>',
  '<r><a><![CDATA[]]>x</a></r>',
  '<r><a><![CDATA[a]]><![CDATA[b]]>x</a></r>',
  '<r><a>x<![CDATA[a]]><![CDATA[b]]></a></r>',
  '<r><a><![CDATA[<&>]]]]></a></r>',
  '<r>a > b</r>',
  '<r>]]</r>',
  '<r>]] ></r>',
  // prolog and epilog
  '<?xml version="1.0"?><r/>',
  '<?xml version="1.0" encoding="UTF-8"?><r>é</r>',
  '<?xml version="1.0" encoding="utf-8" standalone="yes"?><r/>',
  "<?xml version='1.0' encoding='ISO-8859-1'?><r>é</r>",
  "<?xml version='1.0' encoding='latin1'?><r a='ü'>é</r>",
  "\ufeff<?xml version='1.0' encoding='ISO-8859-1'?><r>é</r>",
  "<?xml version='1.0' encoding='utf8'?><r>é</r>",
  "<?xml version='1.0' encoding='ascii'?><r>a</r>",
  "<?xml version='1.0' encoding='US-ASCII'?><r>é</r>",
  "<?xml version='1.0' encoding='UTF-16'?><r>é</r>",
  '<?xml version="1.1"?><r/>',
  '<?xml version="2.0"?><r/>',
  '<?xml version="1."?><r/>',
  '<?xml version="1"?><r/>',
  '<?xml version="1.0"encoding="UTF-8"?><r/>',
  '<?xml version="1.0" standalone="maybe"?><r/>',
  '<?xml encoding="UTF-8"?><r/>',
  '<?xml version="1.0" standalone="yes" encoding="UTF-8"?><r/>',
  '<?xml version="1.0a"?><r/>',
  '<?xml version="1.0" ?><r/>',
  "<?xml version = '1.0' ?><r/>",
  '<?xml version="1.0" encoding="UTF-8"standalone="yes"?><r/>',
  '<?xml version="1.0" encoding="latin1"standalone="yes"?><r/>',
  '<?xml version="1.0" encoding="UTF-8" standalone=\'no\' ?><r/>',
  '<?xml\tversion="1.0"?><r/>',
  '<?xml version="1.0" encoding=""?><r/>',
  '<?xml version="1.0" encoding="1x"?><r/>',
  '<?xml version="1.0" encoding=\'UTF-8"?><r/>',
  '<?xml version="1.0" >\n<r/>',
  '<?xml ?><r/>',
  '<?xml?><r/>',
  '<?xml-stylesheet?><r/>',
  '<?xml version="1.0"?><?xml version="1.0"?><r/>',
  ' <?xml version="1.0"?><r/>',
  '<?xml version="1.0"?>\n<!-- c --><!DOCTYPE r><r/>',
  '<!DOCTYPE r><!DOCTYPE r><r/>',
  '<r/><!DOCTYPE r>',
  '<!DOCTYPE r PUBLIC "-//x" "y"><r/>',
  '<!DOCTYPE r PUBLIC "-//x"><r/>',
  '<!DOCTYPE r SYSTEM "x.dtd"><r>a</r>',
  '<!DOCTYPE r SYSTEM "a\u0001"><r/>',
  '<!DOCTYPE r PUBLIC "a{" "b"><r/>',
  '<!DOCTYPE r PUBLIC \'a"b\' "c"><r/>',
  "<!DOCTYPE  r  SYSTEM  'x'  ><r/>",
  "<!DOCTYPE r SYSTEM'x'><r/>",
  '<!DOCTYPE r[]><r/>',
  '<!DOCTYPE r [ ]><r/>',
  '<!DOCTYPE p:r><r/>',
  '<!DOCTYPE 1r><r/>',
  '<!doctype r><r/>',
  '<!DOCTYPEr><r/>',
  '<!DOCTYPE r SYSTEM ""><r/>',
  '<!-- a --><r/><!-- b --><?p?>\n',
  '<r/>\u0000',
  '<r/>\u0000junk',
  '<r/>\n\u0000',
  '<r/><!--\u0001-->',
  '<r/>\u0001',
  '<r/>\ufeff',
  '<r/>x',
  '<r/><r/>',
  '<r></r>text',
  'text<r/>',
  '',
  '   ',
  '<?xml version="1.0"?>',
  '<r/>\n\n',
  // names and namespaces
  '<p:a/>',
  '<r><p:a>1</p:a></r>',
  '<r xmlns:p=""/>',
  '<a:b:c/>',
  '<r><a:b:c>1</a:b:c></r>',
  '<:a/>',
  '<r><:a>1</:a></r>',
  '<r a:="1"/>',
  '<r xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"/>',
  '<r xmlns:p="u"><p:a>1</p:a><a p:x="2" xml:lang="en">3</a></r>',
  '<r xmlns="u"><a>1</a></r>',
  '<a:b xmlns:a="u">t</a:b>',
  '<a:b xmlns:a="u" x="1" a:y="2">t</a:b>',
  '<r xmlns:a="u"><a:b:c/></r>',
  '<r><a:1b/></r>',
  '<r><a:b:1/></r>',
  '<r><a:/></r>',
  '<r><a:></a:></r>',
  '<r xmlns="u" xmlns="v"/>',
  '<r xmlns:a="u" xmlns:a="v"/>',
  '<r xmlns=""/>',
  '<r xmlns="rel"/>',
  '<r xml:lang="en" xmlns:p="u"/>',
  '<r xmlns:p="u"><a xml:lang="en">x</a></r>',
  '<r x="1" xmlns:p="u" p:x="2"/>',
  '<r p:x="1" p:x="2"/>',
  '<r xmlns:p="u" p:x="1" p:x="2"/>',
  '<r xmlns:xml="http://www.w3.org/XML/1998/namespace"/>',
  '<r xmlns:xml="u"/>',
  '<r xmlns:xmlns="u"/>',
  '<r xmlns="http://www.w3.org/2000/xmlns/"/>',
  '<r xmlns:p="u"><p:a/></r>',
  '<r><a xmlns:p="u" p:x="1" x="2">t</a></r>',
  '<r xmlns:p="u" p:x="1" x="2"/>',
  '<r xmlns:p="rel/uri"/>',
  '<r xmlns:p="u"><p:a></q:a></r>',
  '<r xmlns:p="u" xml:lang="en"><p:a p:b="1" xml:c="2" b="3">x</p:a><a/></r>',
  '<r xmlns:a="u" xmlns:b="v"><a:x>1</a:x><b:x>2</b:x><x>3</x></r>',
  '<r xmlns:a="u"><a:x><y>1</y></a:x><x a:k="v" k="w"/></r>',
  '<r xmlns:a="u"><x xmlns:a="" a:k="1"/></r>',
  '<r xmlns="u"><x xmlns=""><y/></x></r>',
  '<a:r xmlns:a="u"><a:x>1</a:x><x>2</x></a:r>',
  '<r><xmlns:a>1</xmlns:a></r>',
  '<r><xml:a>1</xml:a></r>',
  '<r xmlns:p="u"><p:a xmlns:p="v">1</p:a></r>',
  '<r p:x="1" xmlns:p="u"/>',
  '<r><a xmlns:b="u"><b:c>1</b:c></a><b:c>2</b:c></r>',
  // well-formedness errors
  '<r>bad',
  '<r x="1" x="2"/>',
  '<r><!-- a -- b --></r>',
  '<r><!-- a ---></r>',
  '<r><!---></r>',
  '<r><?xml x?></r>',
  '<r><?XmL x?></r>',
  '<r>]]></r>',
  '<r>]>]]></r>',
  '<r>&foo;</r>',
  '<r>&#0;</r>',
  '<r>&#x1;</r>',
  '<r>\u0001</r>',
  '<r>&#xFFFE;</r>',
  '<r>&#xD800;</r>',
  '<r>&#1114112;</r>',
  '<r>&#99999999999999999999;</r>',
  '<r></r >',
  '<r></ r>',
  '< r/>',
  '<r a=1/>',
  '<r a="<"/>',
  '<r a="&"/>',
  "<r\ta\n=\n'x'/>",
  '<r a="1"b="2"/>',
  '<r><1a>1</1a></r>',
  '<r><-a/></r>',
  '<r><a></A></r>',
  '<r>&#x;</r>',
  '<r>&#;</r>',
  '<r>&#65</r>',
  '<r>&amp</r>',
  '<r>& </r>',
  '<r>&#x41;&#X41;</r>',
  '<r><![cdata[x]]></r>',
  '<r><!DOCTYPE r></r>',
  '<r><! x></r>',
  '<r/ >',
  '<r / >',
  '<r a="1"/>',
  '<r a = "1" >x</r>',
  '<r><a b="1"c="2"/></r>',
  '<r>\u0000</r>',
  '<r a="\u0000"/>',
  '<r><![CDATA[x]></r>',
  '<r><!-- x',
  '<r><?pi x',
  '<r a="x',
  '<r a',
  '<r',
  '<',
  '<r><a></r></a>',
  '<r></r></r>',
  '<r>&constructor;</r>',
  '<r>&lt</r>',
  '<r a="&#x0;"/>',
  '<r xmlns:p="u"><p:a></p:a ></r>',
  '<r><a></a\t></r>',
  { bytes: [0x3c, 0x72, 0x3e, 0xc3, 0x3c, 0x2f, 0x72, 0x3e] },
  { bytes: [0x3c, 0x72, 0x3e, 0xff, 0xfe, 0x3c, 0x2f, 0x72, 0x3e] },
  { bytes: [...Buffer.from("<?xml version='1.0' encoding='ISO-8859-1'?><r a='\xe9'>\xe9\xff</r>", 'latin1')] },
  { bytes: [...Buffer.from("<?xml version='1.0' encoding='US-ASCII'?><r>\xe9</r>", 'latin1')] },
  { bytes: [0x3c, 0x72, 0x2f, 0x3e, 0x00, 0xff] },
  { bytes: [...Buffer.from("<?xml version='1.0' encoding='cp1252'?><r>\x80\x9f\xff\xa0</r>", 'latin1')] },
  { bytes: [...Buffer.from("<?xml version='1.0' encoding='Windows-1252'?><r>\x81</r>", 'latin1')] },
  { bytes: [...Buffer.from("<?xml version='1.0' encoding='UTF_8'?><r>\xc3\xa9</r>", 'latin1')] },
  { bytes: [...Buffer.from("<?xml version='1.0' encoding='U.T.F-8'?><r>\xc3\xa9</r>", 'latin1')] },
  '<?xml version="1.0" encoding="UTF--8"?><r>é</r>',
  '<?xml version="1.0" encoding="ISO-LATIN-1"?><r>é</r>',
  '<?xml version="1.0" encoding="L1"?><r>é</r>',
  '<?xml version="1.0" encoding="ISO_8859_1"?><r>é</r>',
  '<?xml version="1.0" encoding="UTF_8"standalone="yes"?><r/>',
  '<?xml version="1.0" encoding="ISO-8859-1"standalone="yes"?><r/>',
  '<?xml version="1.0" encoding="US-ASCII"standalone="yes"?><r/>',
  '<?xml version="1.0" encoding="UTF-16"standalone="yes"?><r/>',
  '<?xml version="1.0" encoding="ANSI_X3.4-1968"?><r>a</r>',
  '<?xml version="1.0" encoding="US-ASCII"?><r>&#233;</r>',
  '<?xml version="1.0" encoding="UTF-16LE"?><r/>',
  '<?xml version="1.0" encoding="8859_1"?><r/>',
  '<?xml version="1.0" encoding="bogus"?><r/>',
];

/**
 * Documents PHP accepts and xmltojson refuses on purpose: DTD internal subsets, undeclared
 * entities next to an external subset (libxml keeps an empty reference node there), and
 * encodings that need iconv's tables.
 */
export const DEVIATIONS: string[] = [
  '<!DOCTYPE r [<!ENTITY e "v">]><r>&e;</r>',
  '<!DOCTYPE r [<!ELEMENT r ANY>]><r/>',
  '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>',
  '<!DOCTYPE r [<!ENTITY a "aa"><!ENTITY b "&a;&a;&a;">]><r>&b;</r>',
  '<!DOCTYPE r SYSTEM "x.dtd"><r>&foo;</r>',
  "<?xml version='1.0' encoding='Shift_JIS'?><r>a</r>",
  "<?xml version='1.0' encoding='EUC-JP'?><r>a</r>",
];

const NAMES = ['a', 'b', 'item', 'comment', 'x-y', 'n.1', '名', 'é', '_u'];
const PREFIXES = ['p', 'q', 'undecl'];
const TEXTS = [
  '1',
  ' ',
  '  \n ',
  'hello',
  'a b',
  '0',
  '1.50',
  'é€',
  '😀',
  '/',
  '\\',
  '"q"',
  "'",
  '\t',
  'x\ny',
  '-1',
  ' pad ',
];
const REFS = ['&amp;', '&lt;', '&gt;', '&quot;', '&apos;', '&#65;', '&#x263A;', '&#10;', '&#x9;', '&#13;', '&#128512;'];

/** A random well-formed-ish document (undeclared prefixes and duplicate-looking names on purpose). */
function randomDocument(rng: Random): string {
  const pick = <T>(xs: readonly T[]): T => xs[rng.int(0, xs.length - 1)];
  const text = (): string => {
    let s = '';
    for (let k = rng.int(1, 3); k > 0; k--) s += rng.next() < 0.3 ? pick(REFS) : pick(TEXTS);
    return s;
  };
  const name = (): string => {
    const local = pick(NAMES);
    return rng.next() < 0.2 ? `${pick(PREFIXES)}:${local}` : local;
  };
  const element = (depth: number): string => {
    const tag = name();
    let attrs = '';
    if (depth === 0 || rng.next() < 0.15) attrs += ' xmlns:p="urn:p"';
    if (rng.next() < 0.1) attrs += ' xmlns:q="urn:q"';
    if (rng.next() < 0.05) attrs += ' xmlns="urn:default"';
    const used = new Set<string>();
    for (let k = rng.int(0, 3) - 1; k > 0; k--) {
      const an = rng.next() < 0.2 ? `${pick(['p', 'q', 'xml'])}:${pick(NAMES)}` : pick(NAMES);
      if (used.has(an)) continue;
      used.add(an);
      attrs += ` ${an}=${rng.next() < 0.5 ? `"${text().replace(/"/g, '&quot;')}"` : `'${text().replace(/'/g, '&apos;')}'`}`;
    }
    if (depth > 5 || rng.next() < 0.15) return `<${tag}${attrs}${rng.next() < 0.5 ? '/' : ' /'}>`;
    let body = '';
    const n = rng.int(0, 4);
    for (let k = 0; k < n; k++) {
      const r = rng.next();
      if (r < 0.45) body += element(depth + 1);
      else if (r < 0.75) body += text();
      else if (r < 0.82) body += `<![CDATA[${pick(TEXTS)}]]>`;
      else if (r < 0.9) body += `<!--${pick(['', ' c ', 'x-y'])}-->`;
      else if (r < 0.95) body += `<?${pick(['pi', 'comment', 'a'])} data?>`;
      else body += pick(['\n  ', ' ', '\t']);
    }
    return `<${tag}${attrs}>${body}</${tag}>`;
  };
  const decl = rng.next() < 0.2 ? '<?xml version="1.0" encoding="UTF-8"?>\n' : '';
  return decl + element(0) + (rng.next() < 0.2 ? '\n<!-- end -->\n' : '');
}

/** One random edit: delete, duplicate, or insert a markup character. */
function damage(doc: string, rng: Random): string {
  const chars = Array.from(doc); // whole code points: no half surrogate pairs
  const at = rng.int(0, chars.length - 1);
  const r = rng.next();
  if (r < 0.4) chars.splice(at, 1);
  else if (r < 0.6) chars.splice(at, 0, chars[at]);
  else chars.splice(at, 0, ['<', '>', '&', '"', "'", '/', ':', ']]>', '--', ' ', '=', '\u0001'][rng.int(0, 11)]);
  return chars.join('');
}

/** Nested `depth` levels; with `pairs`, every level also repeats the name, which adds a JSON array level. */
export function nested(depth: number, pairs: boolean): string {
  let s = 'x';
  for (let k = 0; k < depth; k++) s = pairs ? `<a>${s}</a><a/>` : `<a>${s}</a>`;
  return pairs ? `<r>${s}</r>` : s;
}

export function generatedCases(seed: number, count: number, damaged: number): string[] {
  const rng = new Random([seed & 255, (seed >> 8) & 255, 7, 9, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53]);
  const out: string[] = [];
  for (let k = 0; k < count; k++) out.push(randomDocument(rng));
  for (let k = 0; k < damaged; k++) out.push(damage(out[k % count], rng));
  return out;
}

/**
 * The document tree the XML parser builds: the node kinds libxml2 keeps under the root
 * element, with the naming libxml2 gives them, which is what SimpleXML reads.
 */

export interface XmlAttr {
  /**
   * libxml's attribute name: the local part when the prefix is bound, the whole qualified
   * name when it is not (`p:x` with no `xmlns:p` in scope).
   */
  name: string;
  /** Prefix of the bound namespace (null: no namespace). */
  prefix: string | null;
  nsUri: string | null;
  value: string;
}

export interface XmlElement {
  kind: 'element';
  /** As for attributes: local name, or the whole qualified name when its prefix is unbound. */
  name: string;
  /** Prefix of the element's namespace; null for no namespace or a default (unprefixed) one. */
  prefix: string | null;
  nsUri: string | null;
  attrs: XmlAttr[];
  children: XmlNode[];
}

/** Character data; adjacent text (references included) is one node, as libxml merges it. */
interface XmlText {
  kind: 'text';
  value: string;
}

/** A CDATA section; adjacent sections are one node. */
interface XmlCData {
  kind: 'cdata';
  value: string;
}

export interface XmlComment {
  kind: 'comment';
  value: string;
}

export interface XmlPI {
  kind: 'pi';
  target: string;
  data: string;
}

export type XmlNode = XmlElement | XmlText | XmlCData | XmlComment | XmlPI;

export interface XmlProblem {
  message: string;
  line: number;
  column: number;
}

export type XmlParseResult =
  | { ok: true; root: XmlElement; /** Non-fatal namespace errors libxml reports. */ warnings: XmlProblem[] }
  | { ok: false; error: XmlProblem; warnings: XmlProblem[] };

/**
 * What PHP 8.2 sees when it casts a SimpleXMLElement to an array or JSON-encodes it: a port of
 * ext/simplexml's sxe_get_prop_hash() and _get_base_node_value().
 *
 * For an element:
 * - its attributes (those without a namespace prefix) go under "@attributes", name => value;
 * - a text node that is the element's only child and not blank becomes property 0;
 * - every child element, comment ("comment") and processing instruction (its target) becomes a
 *   property under its name: a string when its first child is non-blank text (all its text and
 *   CDATA, concatenated; its attributes and child elements are lost), else the same conversion
 *   again; a name seen twice turns into a list, in document order;
 * - other text, CDATA sections and blank text are dropped; children whose element name has a
 *   namespace prefix are skipped.
 *
 * `allNamespaces` turns that last test off at every level (xmltojson's convert_namespace=1):
 * prefixed elements and attributes are kept, under their local names.
 */
import { PhpArray, PhpObject, type Value } from '../../value/value.js';
import type { XmlComment, XmlElement, XmlNode, XmlPI } from './nodes.js';

/** libxml's xmlIsBlankNode on text: empty or only space, tab, LF, CR. */
function isBlankText(s: string): boolean {
  return /^[ \t\n\r]*$/.test(s);
}

function propertyName(n: XmlNode): string | null {
  switch (n.kind) {
    case 'element':
      return n.name;
    case 'comment':
      return 'comment';
    case 'pi':
      return n.target;
    default:
      return null;
  }
}

export function simpleXmlProperties(node: XmlElement | XmlComment | XmlPI, allNamespaces: boolean): PhpObject {
  const out = new PhpObject();
  if (node.kind !== 'element') return out;
  let attrs: PhpArray | null = null;
  for (const a of node.attrs) {
    if (!allNamespaces && a.prefix !== null) continue;
    attrs ??= PhpArray.empty();
    attrs.set(a.name, a.value);
  }
  if (attrs !== null) out.set('@attributes', attrs);
  const children = node.children;
  for (const c of children) {
    if (c.kind === 'text') {
      if (children.length === 1 && !isBlankText(c.value)) out.set('0', c.value);
      continue;
    }
    if (c.kind === 'element' && !allNamespaces && c.prefix !== null) continue;
    if (c.kind === 'cdata') continue;
    const name = propertyName(c)!;
    addProperty(out, name, baseValue(c, allNamespaces));
  }
  return out;
}

function baseValue(n: XmlElement | XmlComment | XmlPI, allNamespaces: boolean): Value {
  if (n.kind === 'element') {
    const first = n.children[0];
    if (first !== undefined && first.kind === 'text' && !isBlankText(first.value)) {
      let s = '';
      for (const c of n.children) if (c.kind === 'text' || c.kind === 'cdata') s += c.value;
      return s;
    }
  }
  return simpleXmlProperties(n, allNamespaces);
}

/** sxe_properties_add: a second value under one name makes a list. */
function addProperty(o: PhpObject, name: string, value: Value): void {
  const prev = o.props.get(name);
  if (prev === undefined) o.set(name, value);
  else if (prev instanceof PhpArray) prev.push(value);
  else o.set(name, PhpArray.fromList([prev, value]));
}

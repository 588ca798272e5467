import { defineFunction } from '../types.js';
import type { Value } from '../../value/value.js';
import { toBool, toStr } from '../../value/convert.js';
import { LimitError } from '../../value/limits.js';
import { parseXml } from '../../php/xml/parser.js';
import { simpleXmlProperties } from '../../php/xml/simplexml.js';
import { jsonEncode } from '../../php/json/encode.js';

/**
 * Largest document read, in characters. Sized so that the JSON (at most six characters per
 * input character, for `\uXXXX` escapes) stays under the runtime's 16 MiB string limit.
 */
export const MAX_XML_LENGTH = 2 * 1024 * 1024;

/** Namespace warnings passed on per call; the rest are counted. */
const MAX_WARNINGS = 10;

/**
 * The platform's xmltojson is `json_encode(simplexml_load_string($xml))`; var receives that
 * JSON text (a string), or false when the XML is not well-formed (with a warning, as PHP
 * prints one) or when json_encode fails (nesting deeper than 512).
 *
 * convert_namespace (any non-zero value) keeps the elements and attributes that have a
 * namespace prefix, which SimpleXML leaves out, under their local names and in document order;
 * see src/php/xml/simplexml.ts.
 */
export function xmlToJson(xml: string, allNamespaces: boolean, warn: (m: string) => void): Value {
  if (xml.length > MAX_XML_LENGTH)
    throw new LimitError(`xmltojson: the XML has ${xml.length} characters (limit ${MAX_XML_LENGTH})`);
  const r = parseXml(xml);
  for (const w of r.warnings.slice(0, MAX_WARNINGS))
    warn(`xmltojson: namespace warning at line ${w.line}, column ${w.column}: ${w.message}`);
  if (r.warnings.length > MAX_WARNINGS) warn(`xmltojson: ${r.warnings.length - MAX_WARNINGS} more namespace warnings`);
  if (!r.ok) {
    warn(`xmltojson: the XML is not well-formed (line ${r.error.line}, column ${r.error.column}): ${r.error.message}`);
    return false;
  }
  return jsonEncode(simpleXmlProperties(r.root, allNamespaces));
}

export default defineFunction({
  kind: 'function',
  name: 'xmltojson',
  summary:
    'Converts XML to JSON text in var, as PHP json_encode(simplexml_load_string($xml)) does: attributes under "@attributes", text-only elements as strings, repeated elements as lists, empty elements as {}. var is false when the XML is not well-formed. DTD internal subsets and undeclared entities are refused.',
  attrs: {
    var: { type: 'varname', required: true },
    xml: { type: 'string', default: '' },
    convert_namespace: {
      type: 'int',
      default: 0,
      doc: '1 also keeps elements and attributes with a namespace prefix (under their local names)',
    },
  },
  examples: [
    {
      template: `{xmltojson var=j xml='<shop id="7"><item>pen</item><item>ink</item><note/></shop>'}{$j}`,
      output: '{"@attributes":{"id":"7"},"item":["pen","ink"],"note":{}}',
    },
    {
      template: `{xmltojson var=j xml='<feed xmlns:m="urn:m"><title>News</title><m:count>2</m:count></feed>' convert_namespace=1}{$j}`,
      output: '{"title":"News","count":"2"}',
    },
    { template: `{xmltojson var=j xml='<a><b></a>'}{if $j === false}invalid{/if}`, output: 'invalid' },
  ],
  run(attrs, ctx) {
    const ns = attrs.convert_namespace;
    const all = ns !== undefined && ns !== null && toBool(ns);
    ctx.assign(
      toStr(attrs.var),
      xmlToJson(toStr(attrs.xml ?? ''), all, (m) => ctx.warn(m)),
    );
  },
});

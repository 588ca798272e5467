/**
 * xmltojson against PHP: json_encode(simplexml_load_string($xml)) for convert_namespace=0, and
 * the reference conversion of xmltojson-reference.php (SimpleXML's, namespace filter off) for
 * convert_namespace=1. The reference itself is checked against PHP's own conversion.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { xmlToJson } from '../../../src/plugins/markup/xmltojson.js';
import { fromBytes, toBytes } from '../../../src/value/bytes.js';
import { DEVIATIONS, HAND_WRITTEN, generatedCases, nested, type XmlCase } from './xml-cases.js';

const SCRIPT = fileURLToPath(new URL('./xmltojson-reference.php', import.meta.url));

interface Answer {
  native: string | false;
  ref0: string | false;
  ref1: string | false;
}

function askPhp(docs: XmlCase[]): Answer[] {
  const input =
    docs
      .map((d) => JSON.stringify({ b64: Buffer.from(typeof d === 'string' ? toBytes(d) : d.bytes).toString('base64') }))
      .join('\n') + '\n';
  const out = execFileSync('php', [SCRIPT], { input, maxBuffer: 256 * 1024 * 1024 }).toString('utf8');
  const lines = out.split('\n').filter((l) => l !== '');
  if (lines.length !== docs.length) throw new Error(`php answered ${lines.length} of ${docs.length}`);
  return lines.map((l) => JSON.parse(l) as Answer);
}

const asString = (d: XmlCase): string => (typeof d === 'string' ? d : fromBytes(Uint8Array.from(d.bytes)));

const DEEP: XmlCase[] = [
  nested(256, false),
  nested(257, false),
  nested(258, false),
  nested(300, false),
  nested(255, true),
  nested(256, true),
  nested(200, true),
  `<r><${'n'.repeat(50000)}/></r>`,
  `<r><${'n'.repeat(50001)}/></r>`,
  `<r><${'é'.repeat(25000)}/></r>`,
  `<r><${'é'.repeat(25001)}/></r>`,
  `<r>${'<a/>'.repeat(3000)}</r>`,
  `<r>${'x&amp;'.repeat(5000)}</r>`,
];

const GENERATED = generatedCases(2024, 400, 250);

function compare(docs: XmlCase[]): { agree: number; mismatches: string[] } {
  const answers = askPhp(docs);
  const mismatches: string[] = [];
  let agree = 0;
  docs.forEach((d, k) => {
    const a = answers[k];
    const s = asString(d);
    const ours0 = xmlToJson(s, false, () => {});
    const ours1 = xmlToJson(s, true, () => {});
    const show = JSON.stringify(s.length > 200 ? s.slice(0, 200) + '…' : s);
    if (a.ref0 !== a.native) mismatches.push(`reference differs from PHP on ${show}`);
    if (ours0 !== a.native)
      mismatches.push(`ns=0 ${show}: ours ${JSON.stringify(ours0)} php ${JSON.stringify(a.native)}`);
    else if (ours1 !== a.ref1)
      mismatches.push(`ns=1 ${show}: ours ${JSON.stringify(ours1)} ref ${JSON.stringify(a.ref1)}`);
    else agree++;
  });
  return { agree, mismatches };
}

describe('xmltojson against PHP', () => {
  it(`${HAND_WRITTEN.length} hand-written documents`, () => {
    const r = compare(HAND_WRITTEN);
    expect(r.mismatches).toEqual([]);
    expect(r.agree).toBe(HAND_WRITTEN.length);
  });

  it(`${DEVIATIONS.length} documents with DTD features are refused (PHP accepts them)`, () => {
    const answers = askPhp(DEVIATIONS);
    DEVIATIONS.forEach((d, k) => {
      const warnings: string[] = [];
      expect(xmlToJson(d, false, (m) => warnings.push(m))).toBe(false);
      expect(warnings.length).toBeGreaterThan(0);
      expect(answers[k].native).not.toBe(false);
    });
  });

  it(`${DEEP.length} deep, wide and long-named documents`, () => {
    const r = compare(DEEP);
    expect(r.mismatches).toEqual([]);
  });

  it(`${GENERATED.length} generated documents (400 random trees, 250 damaged copies)`, () => {
    const r = compare(GENERATED);
    expect(r.mismatches).toEqual([]);
    // the generator must exercise both outcomes
    const answers = askPhp(GENERATED);
    expect(answers.filter((a) => a.native === false).length).toBeGreaterThan(50);
    expect(answers.filter((a) => a.native !== false).length).toBeGreaterThan(300);
  });
});

/**
 * Our own differential cases, recorded with real Smarty 2.6.33 on PHP 8.2
 * (scripts/oracle/record-smarty2.mjs re-records them where the oracle is present): one file per
 * area in test/conformance/smarty2/, rendered through the real path.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { testEngine } from '../support/engine.js';
import { expectLikeSmarty2 } from '../support/smarty2-case.js';

interface Recorded {
  id: string;
  template: string;
  vars: string;
  objects?: boolean;
  includes?: Record<string, string>;
  error: boolean;
  expect?: string;
  expect_base64?: string;
  note?: string;
}

const DIR = fileURLToPath(new URL('./smarty2/', import.meta.url));
const areas = readdirSync(DIR).filter((f) => f.endsWith('.recorded.jsonl')).sort();

for (const file of areas) {
  const cases: Recorded[] = readFileSync(DIR + file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Recorded);
  const includes = Object.assign({}, ...cases.map((c) => c.includes ?? {})) as Record<string, string>;
  const engine = testEngine({ templates: includes });
  describe(`Smarty 2.6.33 differential: ${file.replace('.recorded.jsonl', '')}`, () => {
    for (const c of cases) {
      it(`${c.id}${c.note ? `: ${c.note}` : ''}`, async () => {
        await expectLikeSmarty2(engine, c);
      });
    }
  });
}

/**
 * Our own differential cases, recorded with real Smarty 2.6.33 on PHP 8.2
 * (scripts/oracle/record-smarty2.mjs re-records them where the oracle is present): one file per
 * area in test/conformance/smarty2/, rendered through the real path. Real templates from public
 * projects may not be committed here; when the steering repository's shared/conformance/wild/
 * holds them (recorded the same way, with a `source` per case), they run here too.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { testEngine } from '../support/engine.js';
import type { Engine, SourceLookup } from '../../src/index.js';
import { expectLikeSmarty2 } from '../support/smarty2-case.js';

interface Recorded {
  id: string;
  template: string;
  vars: string;
  objects?: boolean;
  includes?: Record<string, string>;
  /** Smarty's $default_modifiers for the case: the engine's defaultModifiers. */
  default_modifiers?: string[];
  error: boolean;
  expect?: string;
  expect_base64?: string;
  note?: string;
}

const tenantOf = (c: Recorded): string | undefined => (c.includes ? `case-${c.id}` : undefined);

const DIR = fileURLToPath(new URL('./smarty2/', import.meta.url));
const WILD = fileURLToPath(new URL('../../../shared/conformance/wild/', import.meta.url));
const recordedIn = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.recorded.jsonl'))
        .sort()
        .map((f) => dir + f)
    : [];

for (const path of [...recordedIn(DIR), ...recordedIn(WILD)]) {
  const file = path.slice(path.lastIndexOf('/') + 1);
  const cases: Recorded[] = readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Recorded);
  // A case's own includes first: two cases may include one name with different text (real
  // templates do, and each was recorded with its own). A case with includes renders as a tenant of
  // its own, whose lookup answers them; then the area's other includes, as one map.
  const shared = Object.assign({}, ...cases.map((c) => c.includes ?? {})) as Record<string, string>;
  const own = new Map(cases.filter((c) => c.includes).map((c) => [tenantOf(c)!, c.includes!]));
  const includes: SourceLookup = (name, identity) => own.get(identity.tenant)?.[name] ?? shared[name];
  // One engine per list of default modifiers the area's cases use (most use none).
  const engines = new Map<string, Engine>();
  for (const c of cases) {
    const key = JSON.stringify(c.default_modifiers ?? []);
    if (!engines.has(key))
      engines.set(
        key,
        testEngine({
          templates: includes,
          ...(c.default_modifiers?.length ? { defaultModifiers: c.default_modifiers } : {}),
        }),
      );
  }
  describe(`Smarty 2.6.33 differential: ${file.replace('.recorded.jsonl', '')}`, () => {
    for (const c of cases) {
      it(`${c.id}${c.note ? `: ${c.note}` : ''}`, async () => {
        await expectLikeSmarty2(engines.get(JSON.stringify(c.default_modifiers ?? []))!, c, tenantOf(c));
        // The first case of an engine waits for its sandbox worker to start: slow on a loaded machine.
      }, 120_000);
    }
  });
}

/**
 * docs/limits.md gives every limit with its default: the numbers must be the code's. A row whose
 * first cell is `limits.X` or `pool.X` is checked against DEFAULT_LIMITS or DEFAULT_POOL, one
 * that names a constant against that constant; the number is the first one in its second cell.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { DEFAULT_POOL } from '../../src/sandbox/pool.js';
import { MAX_ARRAY_LENGTH, MAX_STRING_LENGTH } from '../../src/value/limits.js';
import { MAX_INCLUDE_DEPTH } from '../../src/sandbox/request.js';
import { MAX_RETURN_DEPTH, MAX_RETURN_STEPS } from '../../src/runtime/return-size.js';
import { MAX_ANSWER_DEPTH, MAX_SERVICE_RESPONSE_BYTES } from '../../src/host-bridge/plugins/integrations/common.js';
import { MAX_CHAT_MENTIONS, MAX_CHAT_TEXT_CHARS } from '../../src/host-bridge/plugins/integrations/chat_post_message.js';
import { MAX_SOCIAL_TEXT_CHARS } from '../../src/host-bridge/plugins/integrations/social_post_message.js';
import { MAX_PUBSUB_MESSAGE_BYTES } from '../../src/host-bridge/plugins/integrations/cloudpubsub_publish.js';
import { MAX_REPORT_BYTES, MAX_REPORT_ROWS } from '../../src/host-bridge/plugins/integrations/analytics-report.js';
import { MAX_COUNTER_WRITES } from '../../src/host-bridge/plugins/integrations/webanalytics.js';

const CONSTANTS: Record<string, number> = {
  MAX_STRING_LENGTH, MAX_ARRAY_LENGTH, MAX_INCLUDE_DEPTH, MAX_RETURN_DEPTH, MAX_RETURN_STEPS,
  MAX_SERVICE_RESPONSE_BYTES, MAX_ANSWER_DEPTH, MAX_CHAT_TEXT_CHARS, MAX_CHAT_MENTIONS, MAX_SOCIAL_TEXT_CHARS,
  MAX_PUBSUB_MESSAGE_BYTES, MAX_REPORT_ROWS, MAX_REPORT_BYTES, MAX_COUNTER_WRITES,
};

/** [name in the first cell, number in the second] of every table row that names one. */
const rows = [...readFileSync('docs/limits.md', 'utf8').matchAll(/^\| `((?:limits|pool)\.\w+|MAX_\w+)`[^|]*\| ([\d,]+)/gm)].map(
  (m) => [m[1]!, Number(m[2]!.replace(/,/g, ''))] as const,
);

function codeValue(name: string): number | undefined {
  const [scope, key] = name.split('.') as [string, string | undefined];
  if (scope === 'limits') return DEFAULT_LIMITS[key as keyof typeof DEFAULT_LIMITS];
  if (scope === 'pool') return DEFAULT_POOL[key as keyof typeof DEFAULT_POOL];
  return CONSTANTS[name];
}

describe('docs/limits.md', () => {
  it('gives the default of every option of DEFAULT_LIMITS and of the pool memory options', () => {
    const named = new Set(rows.map(([n]) => n));
    expect(Object.keys(DEFAULT_LIMITS).filter((k) => !named.has(`limits.${k}`))).toEqual([]);
    for (const k of ['bigMemoryBudgetMB', 'isolateRetainMB', 'isolateIdleMs', 'workerHeapBudgetMB']) expect(named).toContain(`pool.${k}`);
    for (const k of Object.keys(CONSTANTS)) expect(named).toContain(k);
  });

  it("states each number as the code has it", () => {
    expect(rows.filter(([name, value]) => codeValue(name) !== value)).toEqual([]);
  });
});

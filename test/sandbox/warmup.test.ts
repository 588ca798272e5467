/**
 * The spare's warm-up (src/sandbox/warmup.ts): each of its renders must succeed, since a spare
 * whose warm-up render fails is retired without a word and the next tenant pays for a new isolate.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { IsolateHost } from '../../src/sandbox/isolate-host.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { WARMUP_RENDERS, warmupRequest, warmupTemplate } from '../../src/sandbox/warmup.js';

const host = new IsolateHost(128);
afterAll(() => {
  host.retire();
});

describe('the warm-up', () => {
  it('renders the broad template, then the core one, each without an error', async () => {
    const ids: string[] = [];
    for (let i = 0; i < WARMUP_RENDERS; i++) {
      const r = await host.render(warmupTemplate(i), warmupRequest(i), DEFAULT_LIMITS, null);
      expect(r.error).toBeUndefined();
      expect(r.output!.length).toBeGreaterThan(1000);
      ids.push(warmupTemplate(i).id);
    }
    expect(new Set(ids)).toEqual(new Set(['smartcage-warmup', 'smartcage-warmup-core']));
    // The core's items: 100 list entries, each with its date.
    const core = await host.render(
      warmupTemplate(WARMUP_RENDERS - 1),
      warmupRequest(WARMUP_RENDERS - 1),
      DEFAULT_LIMITS,
      null,
    );
    expect(core.output!.match(/<li /g)).toHaveLength(100);
    expect(core.output!.match(/ \d{4}-\d\d-\d\d /g)).toHaveLength(100);
  });

  it('takes the branches pages take: both quotes escaped, new characters to json_encode, rows read by index', async () => {
    const r = await host.render(warmupTemplate(0), warmupRequest(0), DEFAULT_LIMITS, null);
    const out = r.output!;
    expect(out).toContain('&quot;q&quot; it&#039;s');
    // json_encode's escapes, url-encoded: more distinct characters than one item holds.
    const escapes = new Set(decodeURIComponent(out).match(/\\u[0-9a-f]{4}/g));
    expect(escapes.size).toBeGreaterThan(40);
    // The {section}: every other title by index, the others' prices (item 1's: 1234.5).
    expect(out).toContain('Item 0 &lt;b&gt;&amp;&lt;/b&gt; &quot;q&quot; it&#039;s1234.5Item 2 &lt;b&gt;');
  });

  it('leaves a spare usable, its render count back at 0', async () => {
    const spare = new IsolateHost(128);
    spare.warmAsSpare();
    const seen = spare as unknown as { queue: Promise<void>; renders: number };
    await seen.queue;
    expect(spare.usable).toBe(true);
    expect(spare.busy).toBe(false);
    expect(seen.renders).toBe(0);
    spare.retire();
  });
});

/**
 * The tag, master-table and child-site plugins are reads (D271): on SQLite their adapters answer
 * at once, in this process and from a sandbox worker (D362), and in this process a render whose
 * host calls are only these takes the synchronous slice, with the answers of the async path; on
 * PostgreSQL every call goes through the promises. A template that can also reach a write never
 * takes the slice. Which renders took it is read from the host-call channel.
 */
import { afterAll, expect, it } from 'vitest';
import { watchAsyncHostCalls } from '../../src/security/async-host-calls.js';
import { eachBackend } from '../site/support/backends.js';
import { siteBench } from '../site/support/site-bench.js';

type Served = { now: number; later: number };

/** An adapter of the site, counting the calls served by its now face and by its promises. */
function counted<A extends object>(adapter: A, served: Served): A {
  const count =
    (f: (...a: unknown[]) => unknown, face: keyof Served) =>
    (...a: unknown[]): unknown => (served[face]++, f(...a));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(adapter)) if (typeof v === 'function') out[k] = count(v, 'later');
  const now = (adapter as { now?: Record<string, (...a: unknown[]) => unknown> }).now;
  if (now) out.now = Object.fromEntries(Object.entries(now).map(([k, f]) => [k, count(f, 'now')]));
  return out as A;
}

const SOURCES = {
  list: '{assign_tag_list category_id=1 order="open_contents_cnt:desc" var=t}{foreach from=$t item=x}{$x.tag_id}:{$x.tag_nm};{/foreach}',
  categories:
    '{assign_tag_category_list var=c}{foreach from=$c item=x}{$x.tag_category_id}:{$x.tag_category_nm};{/foreach}',
  relation:
    '{assign_relation_tag_list module="topics" module_id=1 var=t}{foreach from=$t item=x}{$x.tag_id}/{$x.tag_category_id};{/foreach}',
  csv: '{assign_csv_table csvtable_id=1 var=t}{$t|@json_encode}',
  child: '{child_site site_key="child" var=c}{$c|@json_encode}',
};
const RENDERS = 12;
/** Host calls answered off the slice (the async path). */
const calls = watchAsyncHostCalls();
afterAll(() => calls.stop());

/** What each source printed on the async path (a sandbox worker), per backend: the slice must print the same. */
const expected = new Map<string, string>();

for (const workers of [1, 0])
  eachBackend(
    `the read plugins of tags, masters and child sites (${workers ? 'a sandbox worker' : 'in process'})`,
    (backend) => {
      const served = { now: 0, later: 0 };
      const bench = siteBench(backend, {
        // The longest slice a configuration may ask for: a loaded machine cuts a render now and then.
        engine: { workers, limits: { syncSliceMs: 20 } },
        host: (h) => ({
          ...h,
          tags: counted(h.tags!, served),
          masters: counted(h.masters!, served),
          childSites: counted(h.childSites!, served),
        }),
      });

      for (const [name, source] of Object.entries(SOURCES))
        it(`{${name}}: the same answer on every path; at once only in process on SQLite`, async () => {
          served.now = served.later = 0;
          calls.reset();
          const outputs = new Set<string>();
          for (let i = 0; i < RENDERS; i++) outputs.add(await bench.render(source));
          expect(outputs.size).toBe(1);
          const [output] = outputs;
          expect(output).not.toBe('');
          const key = `${backend.name} ${name}`;
          if (workers === 1) expected.set(key, output!);
          else expect(output).toBe(expected.get(key));
          if (workers === 0 && backend.name === 'sqlite') {
            // The first render defines the template and goes async; a slice cut on a loaded machine
            // sends the next 8 async: at least one of the others answers in the slice.
            expect(calls.count).toBeLessThan(RENDERS);
          } else expect(calls.count).toBeGreaterThanOrEqual(RENDERS);
          // SQLite's now face answers every call, on either path (D362); PostgreSQL has none.
          if (backend.name === 'sqlite') expect(served.later).toBe(0);
          else expect(served.now).toBe(0);
          expect(served.later + served.now).toBeGreaterThanOrEqual(RENDERS);
        });

      it('a template that can reach a write never answers at once', async () => {
        served.now = served.later = 0;
        calls.reset();
        const source = `${SOURCES.list}{if $never}{increment_counter var=v value=1 topics_group_id=1 slug="x" ext_slug="c"}{/if}`;
        for (let i = 0; i < RENDERS; i++) await bench.render(source);
        expect(calls.count).toBe(RENDERS);
      });
    },
  );

/**
 * Renders whose host calls are reads answered at once (docs/decisions.md D268), through the real
 * engine with `workers: 0`: they take the synchronous slice only when every host plugin the
 * template can call is a read and the adapter has a now face; an adapter that answers only
 * through promises (PostgreSQL's, an embedder's CMS over HTTP) keeps them async; a now face that
 * cannot answer right now sends the render async with the same answer; the host-call channel sees
 * the calls of both paths. Off the slice the now face still answers when it can (D362), so which
 * renders took the slice is read from the channel (watchAsyncHostCalls).
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createEngine,
  HOST_CALL_CHANNEL,
  notNow,
  type ContentAdapter,
  type ContentReadsNow,
  type Engine,
  type HostCallEvent,
  type TopicsCategory,
} from '../../src/index.js';
import { watchAsyncHostCalls, type AsyncHostCalls } from '../../src/security/async-host-calls.js';

const CATEGORIES: TopicsCategory[] = [
  { id: 1, groupId: 1, parentId: null, slug: 'news', names: { en: 'News' }, orderNo: 1, openFlg: true },
  { id: 2, groupId: 1, parentId: null, slug: 'draft', names: { en: 'Draft' }, orderNo: 2, openFlg: false },
  { id: 3, groupId: 1, parentId: null, slug: 'events', names: { en: 'Events' }, orderNo: 3, openFlg: true },
];

/** An in-memory content adapter counting which face served `categories`; `now`: give it a now face. */
function contentOf(now: 'none' | 'answers' | 'busy') {
  const served = { now: 0, later: 0 };
  const face: ContentReadsNow = {
    group: () => null,
    groupTopics: () => [],
    topics: () => [],
    findTopicId: () => null,
    columns: () => [],
    categories: (groupId) => {
      if (now === 'busy') throw notNow('a test store that is busy');
      served.now++;
      return CATEGORIES.filter((c) => c.groupId === groupId);
    },
  };
  const content: ContentAdapter = {
    group: async () => null,
    groupTopics: async () => [],
    topics: async () => [],
    findTopicId: async () => null,
    columns: async () => [],
    categories: async (groupId) => {
      served.later++;
      return CATEGORIES.filter((c) => c.groupId === groupId);
    },
    addToCounter: async () => 1,
    setCounter: async () => 1,
    syncCounters: async () => 0,
    ...(now === 'none' ? {} : { now: face }),
  };
  return { content, served };
}

const LIST =
  '{api_method var=r model="TopicsCategory" method="list" method_params=$m}{foreach from=$r.list item=c}{$c.category_nm},{/foreach}';
const RENDERS = 12;

let engine: Engine | null = null;
let calls: AsyncHostCalls | null = null;
afterEach(async () => {
  calls?.stop();
  await engine?.close();
});

async function renderAll(content: ContentAdapter, source = LIST): Promise<string[]> {
  engine = createEngine({ workers: 0, host: { content }, lang: 'en', limits: { syncSliceMs: 20 } });
  calls = watchAsyncHostCalls();
  const outputs: string[] = [];
  for (let i = 0; i < RENDERS; i++)
    outputs.push((await engine.render(source, { vars: { m: { topics_group_id: 1 } } })).output);
  return outputs;
}

describe('a render whose host calls are reads answered at once (workers: 0)', () => {
  it('takes the slice: the now face answers, with the output of the async path', async () => {
    const { content, served } = contentOf('answers');
    const outputs = await renderAll(content);
    expect(new Set(outputs)).toEqual(new Set(['News,Events,']));
    // The first render defines the template and goes asynchronously; a slice cut on a loaded
    // machine sends the next 8 async: at least one of the others answers in the slice.
    expect(calls!.count).toBeLessThan(RENDERS);
    // Off the slice the now face answers too (D362).
    expect(served).toEqual({ now: RENDERS, later: 0 });
  });

  it('an adapter that answers only through promises keeps every render async', async () => {
    const { content, served } = contentOf('none');
    expect(new Set(await renderAll(content))).toEqual(new Set(['News,Events,']));
    expect(served).toEqual({ now: 0, later: RENDERS });
    expect(calls!.count).toBe(RENDERS);
  });

  it('a now face that cannot answer right now sends the render async, with the same answer', async () => {
    const { content, served } = contentOf('busy');
    expect(new Set(await renderAll(content))).toEqual(new Set(['News,Events,']));
    expect(served).toEqual({ now: 0, later: RENDERS });
    expect(calls!.count).toBe(RENDERS);
  });

  it('a write the template can reach (never reached) keeps it off the slice', async () => {
    const { content, served } = contentOf('answers');
    await renderAll(
      content,
      `${LIST}{if $never}{increment_counter var=v value=1 topics_group_id=1 slug="x" ext_slug="c"}{/if}`,
    );
    expect(calls!.count).toBe(RENDERS);
    // Its reads still answer at once, on the async path (D362).
    expect(served).toEqual({ now: RENDERS, later: 0 });
  });

  it('a render cut after its reads runs again with their answers: each render reads once, whatever path it took', async () => {
    const { content, served } = contentOf('answers');
    engine = createEngine({ workers: 0, host: { content }, lang: 'en', limits: { syncSliceMs: 1 } });
    // Several ms of template work after the call: the slice of 1 ms is cut after it has read.
    const slow = `${LIST}{section name=i loop=$spin}{section name=j loop=1000}{/section}{/section}`;
    for (let i = 0; i < RENDERS; i++) {
      const r = await engine.render(slow, { vars: { m: { topics_group_id: 1 }, spin: 300 } });
      expect(r.output).toBe('News,Events,');
    }
    expect(served.now).toBeGreaterThan(0);
    expect(served.now + served.later).toBe(RENDERS);
  });

  it('the host-call channel sees the calls answered at once as it sees the others', async () => {
    const { content, served } = contentOf('answers');
    const events: HostCallEvent[] = [];
    const channel = tracingChannel(HOST_CALL_CHANNEL);
    const none = () => {};
    const subscriber = {
      start: (m: unknown) => void events.push(m as HostCallEvent),
      end: none,
      asyncStart: none,
      asyncEnd: none,
      error: none,
    };
    channel.subscribe(subscriber);
    try {
      await renderAll(content);
    } finally {
      channel.unsubscribe(subscriber);
    }
    expect(served.now).toBeGreaterThan(0);
    expect(events).toHaveLength(RENDERS);
    expect(events.every((e) => e.plugin === 'api_method' && e.errorCode === undefined)).toBe(true);
  });
});

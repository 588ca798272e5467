/**
 * The compile thread (src/compiler/thread.ts): compiles one template at a time, away from the
 * embedding process's event loop. Included templates and custom functions are looked up by the
 * embedding thread, which holds the embedder's lookups and the render's identity: each lookup is
 * a message and a synchronous wait for the answer, so the compile runs in one pass, exactly as
 * it would inline.
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { compile, CompileAborted } from './index.js';
import type { LookupAnswer, ThreadData, ToThread, FromThread } from './thread.js';
import { BUILTIN_PLUGINS } from '../plugins/registry.js';
import { pluginFromData } from '../plugins/plugin-set.js';

const { port, signal, plugins: own } = workerData as ThreadData;
const plugins = own.length ? BUILTIN_PLUGINS.extend(own.map(pluginFromData)) : BUILTIN_PLUGINS;
const flag = new Int32Array(signal);
const out = parentPort as MessagePort;

/** The embedder's lookup threw: the compile stops, and the render gets the embedder's error. */
class LookupAborted extends CompileAborted {}

function lookup(job: number, kind: 'template' | 'function', key: string, maxSourceChars: number): string | null {
  Atomics.store(flag, 0, 0);
  out.postMessage({ type: 'lookup', job, kind, key } satisfies FromThread);
  let answer: LookupAnswer | undefined;
  for (;;) {
    // The answer is on `port` before the flag is raised; the timed wait only guards a lost wake-up.
    Atomics.wait(flag, 0, 0, 50);
    const m = receiveMessageOnPort(port);
    if (m) {
      answer = m.message as LookupAnswer;
      break;
    }
  }
  if ('abort' in answer) throw new LookupAborted();
  // A source over the limit stays in the embedding thread; a stand-in of the same verdict (one
  // character too long) lets the compiler refuse it at the include, by its length alone.
  if ('tooLarge' in answer) return ' '.repeat(maxSourceChars + 1);
  return answer.text;
}

out.on('message', (m: ToThread) => {
  try {
    const r = compile(m.source, {
      name: m.name,
      id: m.id,
      maxCodeChars: m.maxCodeChars,
      maxSourceChars: m.maxSourceChars,
      defaultModifiers: m.defaultModifiers,
      plugins,
      templates: (name) => lookup(m.job, 'template', name, m.maxSourceChars),
      functions: (key) => lookup(m.job, 'function', key, m.maxSourceChars),
    });
    // The line table goes back as one transferred buffer: as an array of arrays, a big
    // template's 100,000 entries took ~100 ms of the embedding thread to receive.
    const table = new Int32Array(r.manifest.lineTable.length * 4);
    r.manifest.lineTable.forEach((e, i) => table.set(e, i * 4));
    const msg: FromThread = {
      type: 'done',
      job: m.job,
      code: r.code,
      manifest: { ...r.manifest, lineTable: [] },
      lineTable: table,
      diagnostics: r.diagnostics,
    };
    out.postMessage(msg, [table.buffer]);
  } catch (e) {
    const msg: FromThread =
      e instanceof LookupAborted
        ? { type: 'aborted', job: m.job }
        : { type: 'failed', job: m.job, message: e instanceof Error ? e.message.slice(0, 500) : 'the compile failed' };
    out.postMessage(msg);
  }
});
out.postMessage({ type: 'ready' } satisfies FromThread);

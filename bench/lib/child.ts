/**
 * A benchmark child process: `node ... bench/lib/child.ts SUITE`. It loads one suite (one engine,
 * or one smartcage configuration), then answers the orchestrator over IPC: `check` returns every
 * subject's output, `calibrate` and `sample` time one subject, `stage` runs a one-shot stage
 * and returns its figures. Each engine lives in its own process, so no engine's code shares a
 * V8 heap with another's: a String subclass such as Nunjucks' SafeString makes all string code in
 * its heap about 1.6x slower (measured on Node 20).
 */
import { calibrate, sample, type Subject } from './measure.js';

export interface SuiteOptions {
  quick: boolean;
  /** What follows `:` in the suite name (`peer:eta`, `engine:1`). */
  arg?: string;
}

export interface Suite {
  subjects?: Record<string, Subject>;
  versions?: Record<string, string>;
  stage?(opts: { quick: boolean }): Promise<unknown>;
  close?(): void | Promise<void>;
}

process.env.TZ = 'UTC';
const [name, arg] = process.argv[2].split(':');
const mod = (await import(`../suites/${name}.js`)) as { default: (opts: SuiteOptions) => Promise<Suite> };
const quick = process.argv.includes('--quick');
const suite = await mod.default({ quick, arg });
const batches = new Map<string, number>();

type Msg = { id: number; cmd: 'check' | 'calibrate' | 'sample' | 'stage' | 'exit'; subject?: string; ms?: number };

// Every failure is caught below and sent to the parent, so the handler's promise never rejects.
process.on('message', (m: Msg) => void answer(m));

async function answer(m: Msg): Promise<void> {
  try {
    let result: unknown;
    if (m.cmd === 'check') {
      const outputs: Record<string, string> = {};
      for (const [k, s] of Object.entries(suite.subjects ?? {})) outputs[k] = await s.output();
      result = { outputs, versions: suite.versions ?? {} };
    } else if (m.cmd === 'calibrate') {
      const s = suite.subjects![m.subject!];
      await s.run(1);
      await sample(s, await calibrate(s), m.ms!); // warm-up
      batches.set(m.subject!, await calibrate(s));
      result = batches.get(m.subject!);
    } else if (m.cmd === 'sample') {
      result = await sample(suite.subjects![m.subject!], batches.get(m.subject!) ?? 1, m.ms!);
    } else if (m.cmd === 'stage') {
      result = await suite.stage!({ quick });
    } else if (m.cmd === 'exit') {
      await suite.close?.();
      process.send!({ id: m.id, result: null }, () => process.exit(0));
      return;
    }
    process.send!({ id: m.id, result });
  } catch (e) {
    process.send!({ id: m.id, error: e instanceof Error ? `${e.message}\n${e.stack}` : String(e) });
  }
}
process.send!({ id: 0, result: 'ready' });

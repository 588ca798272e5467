/** One peer engine in a process of its own (`peer:eta`, `peer:nunjucks`...). */
import { generate } from '../data/generate.js';
import { PEERS } from '../engines/peers.js';
import type { Suite, SuiteOptions } from '../lib/child.js';

export default async function peer({ arg }: SuiteOptions): Promise<Suite> {
  const make = PEERS[arg ?? ''];
  if (!make) throw new Error(`no such peer engine: ${arg}`);
  const r = await make(generate());
  let sink = 0;
  return {
    versions: { [arg!]: r.version },
    subjects: {
      [arg!]: {
        output: () => r.render(),
        run(n) {
          for (let i = 0; i < n; i++) sink += r.render().length;
        },
      },
    },
    close: () => void sink,
  };
}

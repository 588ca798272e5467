/** The hand-written function in a process of its own: the limit every ratio divides by. */
import { generate } from '../data/generate.js';
import { makeHandWritten } from '../engines/hand-written.js';
import type { Suite } from '../lib/child.js';

export default async function plain(): Promise<Suite> {
  const data = generate();
  const render = makeHandWritten();
  let sink = 0;
  return {
    subjects: {
      plain: {
        output: () => render(data),
        run(n) {
          for (let i = 0; i < n; i++) sink += render(data).length;
        },
      },
    },
    close: () => void sink,
  };
}

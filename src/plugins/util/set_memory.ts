import { defineFunction } from '../types.js';

const CLASSES = ['256M', '512M', '768M'] as const;

/**
 * The compiler reads the tag before the render (src/compiler/memory-class.ts) and picks the
 * isolate's memory class; nothing is left to do at run time.
 */
export default defineFunction({
  kind: 'compiler',
  name: 'set_memory',
  summary:
    'Runs the render with more memory: 256M, 512M or 768M (default is 128M). The value must be written literally; it is decided before the render starts. `var` is accepted as another name for `memory_limit` (the reference table uses it). Prints nothing.',
  attrs: {
    memory_limit: { type: 'string', enum: CLASSES, doc: 'Memory class.' },
    var: { type: 'string', enum: CLASSES, doc: "Same as memory_limit (the reference table's name)." },
  },
  examples: [
    { template: "{set_memory memory_limit='256M'}", output: '' },
    { template: "{set_memory var='512M'}ok", output: 'ok' },
  ],
  run() {},
});

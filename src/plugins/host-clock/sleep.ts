import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'sleep',
  host: 'clock',
  summary:
    "Pauses the render. `ms` is clamped to 100..1000; the time counts against the render's sleep budget and wall-clock deadline.",
  attrs: { ms: { type: 'mixed', doc: 'Milliseconds; below 100 becomes 100, above 1000 becomes 1000.' } },
  examples: [{ template: 'a{sleep ms=5}b', output: 'ab' }],
});

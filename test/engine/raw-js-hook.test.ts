/** The raw-JavaScript render is no method of the engine: only the internal hook reaches it. */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { renderRawJsForHarness } from '../../src/engine-internal.js';

const engine = createEngine({ workers: 0 });
afterAll(() => engine.close());

describe('renderRawJsForHarness', () => {
  it('is not on the engine object an embedder holds', () => {
    expect(Object.keys(engine).sort()).toEqual(['close', 'compile', 'endRequest', 'pids', 'render', 'stats']);
  });

  it('runs a body on an engine made by createEngine', async () => {
    expect((await renderRawJsForHarness(engine, 'return "raw " + (1 + 1);')).output).toBe('raw 2');
  });

  it('refuses an object that only looks like one', async () => {
    await expect(renderRawJsForHarness({ ...engine }, 'return "x";')).rejects.toThrow(/engine made by createEngine/);
  });
});

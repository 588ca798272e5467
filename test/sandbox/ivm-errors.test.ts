/** classifyIsolateError against the errors the pinned isolated-vm really throws: each made by a real isolate. */
import ivm from 'isolated-vm';
import { describe, expect, it } from 'vitest';
import { classifyIsolateError, type IsolateFailure } from '../../src/sandbox/ivm-errors.js';

async function failure(run: () => Promise<unknown>): Promise<IsolateFailure | 'none'> {
  try {
    await run();
    return 'none';
  } catch (e) {
    return classifyIsolateError(e);
  }
}

describe('classifyIsolateError (isolated-vm as pinned)', () => {
  it('a CPU timeout, async and sync', async () => {
    const isolate = new ivm.Isolate({ memoryLimit: 8 });
    const context = await isolate.createContext();
    expect(await failure(() => context.eval('for (;;) {}', { timeout: 20 }))).toBe('cpu-timeout');
    expect(await failure(async () => context.evalSync('for (;;) {}', { timeout: 20 }))).toBe('cpu-timeout');
    isolate.dispose();
  });

  it('the memory limit, then every later call: disposed', async () => {
    const isolate = new ivm.Isolate({ memoryLimit: 8 });
    const context = await isolate.createContext();
    expect(
      await failure(() => context.eval('const a = []; for (;;) a.push(new Array(1e5).fill(1));', { timeout: 10_000 })),
    ).toBe('memory-limit');
    expect(await failure(() => context.eval('1'))).toBe('disposed');
  });

  it('disposed from outside during a call, and after', async () => {
    const isolate = new ivm.Isolate({ memoryLimit: 8 });
    const context = await isolate.createContext();
    const running = context.eval('for (;;) {}', { timeout: 10_000 });
    setImmediate(() => isolate.dispose());
    expect(await failure(() => running)).toBe('disposed');
    expect(await failure(() => isolate.createContext())).toBe('disposed');
  });

  it("the script's own errors are the script's, whatever they say", async () => {
    const isolate = new ivm.Isolate({ memoryLimit: 8 });
    const context = await isolate.createContext();
    expect(await failure(() => context.eval('throw new Error("Script execution timed out")'))).toBe('script');
    expect(await failure(() => context.eval('(('))).toBe('script');
    expect(classifyIsolateError('Isolate is disposed')).toBe('script');
    isolate.dispose();
  });
});

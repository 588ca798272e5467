/**
 * RenderSignal.end (src/host-api/render-signal.ts): the reason a signal carries once its render
 * has ended, whether the signal was asked for before the end or after it (the default reason is
 * made only when a signal carries it).
 */
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../src/host-api/errors.js';
import { RenderSignal, cancelled } from '../../src/host-api/render-signal.js';

const codeOf = (s: AbortSignal) => (s.reason instanceof BridgeError ? s.reason.code : s.reason);

describe('RenderSignal.end', () => {
  it('aborts a signal asked for before the end with E_BRIDGE_CLOSED', () => {
    const r = new RenderSignal(Date.now() + 60_000);
    const s = r.signal;
    expect(s.aborted).toBe(false);
    r.end();
    expect(s.aborted).toBe(true);
    expect(codeOf(s)).toBe('E_BRIDGE_CLOSED');
  });

  it('gives a signal first asked for after the end the same reason', () => {
    const r = new RenderSignal(Date.now() + 60_000);
    r.end();
    expect(r.signal.aborted).toBe(true);
    expect(codeOf(r.signal)).toBe('E_BRIDGE_CLOSED');
  });

  it('keeps the reason it was ended with, before or after the signal is asked for', () => {
    const before = new RenderSignal(Date.now() + 60_000);
    const s = before.signal;
    before.end(cancelled());
    expect(codeOf(s)).toBe('E_CANCELLED');
    const after = new RenderSignal(Date.now() + 60_000);
    after.end(cancelled());
    after.end();
    expect(codeOf(after.signal)).toBe('E_CANCELLED');
  });
});

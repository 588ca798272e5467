/**
 * RenderSignal's end (docs/decisions.md D152, D202): the signal, asked before or after the end,
 * is aborted with E_BRIDGE_CLOSED, or with the reason given; the usual reason carries no stack.
 */
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../src/host-api/errors.js';
import { RenderSignal, cancelled } from '../../src/host-api/render-signal.js';

const reasonOf = (s: AbortSignal) => s.reason as BridgeError;

describe('RenderSignal.end', () => {
  it('aborts a signal asked for before the end with E_BRIDGE_CLOSED, a stackless error', () => {
    const r = new RenderSignal(Date.now() + 60_000);
    const signal = r.signal;
    expect(signal.aborted).toBe(false);
    r.end();
    expect(signal.aborted).toBe(true);
    expect(reasonOf(signal)).toBeInstanceOf(BridgeError);
    expect(reasonOf(signal).code).toBe('E_BRIDGE_CLOSED');
    expect(reasonOf(signal).stack).not.toMatch(/\n\s+at /);
  });

  it('a signal first asked for after the end is aborted already, with the reason given if any', () => {
    const plain = new RenderSignal(Date.now() + 60_000);
    plain.end();
    expect(reasonOf(plain.signal).code).toBe('E_BRIDGE_CLOSED');
    const cancel = new RenderSignal(Date.now() + 60_000);
    cancel.end(cancelled());
    expect(reasonOf(cancel.signal).code).toBe('E_CANCELLED');
    // A second end changes nothing.
    cancel.end();
    expect(reasonOf(cancel.signal).code).toBe('E_CANCELLED');
  });

  it('leaves the stack limit as it was', () => {
    const before = Error.stackTraceLimit;
    const r = new RenderSignal(Date.now() + 60_000);
    void r.signal;
    r.end();
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('x').stack).toMatch(/\n\s+at /);
  });
});

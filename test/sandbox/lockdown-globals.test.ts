/**
 * The lockdown is derived from the context's real global object, not from a list kept by hand:
 * whatever the V8 version adds (Node 24: Iterator, DisposableStack, AsyncDisposableStack,
 * SuppressedError, Float16Array) and the plain functions (decodeURI, escape, isNaN...) are
 * hardened, and so is the global object's own prototype chain. One render tries to leave state
 * on every one of them; the tenant's next render must see none of it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { renderRawJsForHarness } from '../../src/engine-internal.js';

const engine = createEngine({ workers: 0 });
afterAll(() => engine.close());

const raw = async (body: string) =>
  (await renderRawJsForHarness(engine, body, { identity: { tenant: 'globals' } })).output;

/** Every object a global name leads to, with the global object's prototype chain. */
const TARGETS = `
  const targets = [];
  for (const key of Reflect.ownKeys(globalThis)) {
    const v = Object.getOwnPropertyDescriptor(globalThis, key).value;
    if ((typeof v === 'object' || typeof v === 'function') && v !== null && v !== RegExp) {
      targets.push([String(key), v]);
      if (typeof v.prototype === 'object' && v.prototype !== null && v !== RegExp) targets.push([String(key) + '.prototype', v.prototype]);
    }
  }
  for (let p = Object.getPrototypeOf(globalThis), i = 0; p; p = Object.getPrototypeOf(p), i++) targets.push(['globalThis.__proto__#' + i, p]);
`;

describe('the lockdown covers the global object as it really is', () => {
  it('names the globals Node 24 added, so the probe below reaches them', async () => {
    const names = (await raw('return Reflect.ownKeys(globalThis).map(String).join(",");')).split(',');
    for (const n of [
      'decodeURI',
      'encodeURIComponent',
      'escape',
      'unescape',
      'isFinite',
      'isNaN',
      'Iterator',
      'DisposableStack',
      'AsyncDisposableStack',
      'SuppressedError',
      'Float16Array',
    ]) {
      expect(names).toContain(n);
    }
  });

  it('no global, no prototype of one, and no prototype of the global object is extensible', async () => {
    const open = await raw(
      `${TARGETS} return targets.filter(([, v]) => Object.isExtensible(v)).map(([k]) => k).join(',');`,
    );
    expect(open).toBe('');
  });

  it('state one render tries to leave on any of them is gone in the next render', async () => {
    const attempt = await raw(`${TARGETS}
      let set = 0;
      for (const [, v] of targets) { try { v.__leak = 1; if (v.__leak === 1) set++; } catch {} }
      try { Object.getPrototypeOf(globalThis).__leak = 1; } catch {}
      try { decodeURI.cache = 'x'; Iterator.prototype.leak = 1; DisposableStack.leak = 1; } catch {}
      return String(set);`);
    expect(attempt).toBe('0');
    const seen = await raw(`${TARGETS}
      return targets.filter(([, v]) => '__leak' in v).map(([k]) => k).concat(typeof decodeURI.cache === 'string' ? ['decodeURI.cache'] : []).join(',');`);
    expect(seen).toBe('');
  });
});

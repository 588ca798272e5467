/**
 * RegExp and RegExp.prototype are the only built-ins the lockdown leaves unfrozen (V8's fast
 * path for regular expressions needs them so): after every render the runtime compares them with
 * what bootstrap saw (src/runtime/lockdown.ts `regexpIntact`), and a render that changed them
 * gets its context replaced. Each case tampers in one way ("assume breach": hand-written
 * JavaScript), then the next render must see the RegExp of a fresh context.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';

const engine = createEngine({ workers: 0 });
afterAll(() => engine.close());

const raw = async (body: string) => (await engine.renderRawJs(body, { identity: { tenant: 'regexp' } })).output;

const FRESH = `return String(
  Object.isExtensible(RegExp) && Object.isExtensible(RegExp.prototype) &&
  Object.getPrototypeOf(RegExp.prototype) === Object.prototype &&
  !('extra' in RegExp.prototype) && !('extra' in RegExp) &&
  typeof RegExp.prototype.test === 'function' &&
  !Object.getOwnPropertyDescriptor(RegExp.prototype, 'flags').enumerable &&
  /a/.test('a') && 'xa'.replace(/a/, 'b') === 'xb' && RegExp.$1 !== 'forged'
);`;

const TAMPERINGS: [string, string][] = [
  ['a property added to the prototype', 'RegExp.prototype.extra = 1;'],
  ['a static added', 'RegExp.extra = 1;'],
  ['a method replaced', 'RegExp.prototype.test = function () { return false; };'],
  ['a method deleted', 'delete RegExp.prototype.test;'],
  ['only an attribute changed', "Object.defineProperty(RegExp.prototype, 'flags', { enumerable: true });"],
  ['a legacy static getter replaced', "Object.defineProperty(RegExp, '$1', { get: () => 'forged' });"],
  ['the prototype made non-extensible', 'Object.preventExtensions(RegExp.prototype);'],
  ['the constructor made non-extensible', 'Object.preventExtensions(RegExp);'],
  ["the prototype's prototype changed", 'Object.setPrototypeOf(RegExp.prototype, null);'],
];

describe('a render that changes RegExp does not reach the next render', () => {
  it('an untouched context is reported fresh (the probe itself holds)', async () => {
    expect(await raw(FRESH)).toBe('true');
  });

  for (const [what, js] of TAMPERINGS) {
    it(what, async () => {
      expect(await raw(`${js} return "tampered";`)).toBe('tampered');
      expect(await raw(FRESH)).toBe('true');
    });
  }
});

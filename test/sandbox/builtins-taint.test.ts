/**
 * What the lockdown leaves unfrozen because V8's fast paths need it so: RegExp.prototype,
 * RegExp's `Symbol.species`, and the `constructor` and `Symbol.iterator` of Array.prototype and of
 * the typed arrays' prototypes. After every render
 * the runtime compares them with what bootstrap saw (src/runtime/lockdown.ts `builtinsIntact`),
 * and a render that changed them gets its context replaced. Each case tampers in one way ("assume
 * breach": hand-written JavaScript), then the next render must see the built-ins of a fresh
 * context. Object.prototype, the rest of Array.prototype and the typed arrays' prototypes are
 * locked property by property rather than with Object.freeze; the last block checks that they end
 * up just as locked.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { renderRawJsForHarness } from '../../src/engine-internal.js';

const engine = createEngine({ workers: 0 });
afterAll(() => engine.close());

const raw = async (body: string) =>
  (await renderRawJsForHarness(engine, body, { identity: { tenant: 'regexp' } })).output;

const FRESH = `return String(
  Object.isExtensible(RegExp.prototype) && RegExp[Symbol.species] === RegExp &&
  Object.getPrototypeOf(RegExp.prototype) === Object.prototype &&
  !('extra' in RegExp.prototype) && !('extra' in RegExp) &&
  typeof RegExp.prototype.test === 'function' &&
  !Object.getOwnPropertyDescriptor(RegExp.prototype, 'flags').enumerable &&
  /a/.test('a') && 'xa'.replace(/a/, 'b') === 'xb' && RegExp.$1 !== 'forged' &&
  Array.prototype.constructor === Array && Array.prototype[Symbol.iterator] === Array.prototype.values &&
  [1, 2].slice(1).constructor === Array && [...[1, 2]].length === 2 &&
  Uint8Array.prototype.constructor === Uint8Array && Object.getPrototypeOf(Int8Array).prototype.constructor === Object.getPrototypeOf(Int8Array) &&
  Object.getPrototypeOf(Int8Array).prototype[Symbol.iterator] === Object.getPrototypeOf(Int8Array).prototype.values &&
  !Object.prototype.hasOwnProperty.call(Uint8Array.prototype, Symbol.iterator) &&
  new Uint8Array([1, 2, 3]).subarray(1).constructor === Uint8Array && [...new Uint8Array([4, 5])].join() === '4,5'
);`;

const TAMPERINGS: [string, string][] = [
  ['a property added to the prototype', 'RegExp.prototype.extra = 1;'],
  ["RegExp's species replaced", 'Object.defineProperty(RegExp, Symbol.species, { get: () => Array });'],
  ["RegExp's species deleted", 'delete RegExp[Symbol.species];'],
  ['a method replaced', 'RegExp.prototype.test = function () { return false; };'],
  ['a method deleted', 'delete RegExp.prototype.test;'],
  ['only an attribute changed', "Object.defineProperty(RegExp.prototype, 'flags', { enumerable: true });"],
  ['the prototype made non-extensible', 'Object.preventExtensions(RegExp.prototype);'],
  ["the prototype's prototype changed", 'Object.setPrototypeOf(RegExp.prototype, null);'],
  ["Array.prototype's constructor assigned", 'Array.prototype.constructor = function Forged() {};'],
  [
    "Array.prototype's constructor redefined as a getter",
    "Object.defineProperty(Array.prototype, 'constructor', { get: () => Object });",
  ],
  ["Array.prototype's constructor deleted", 'delete Array.prototype.constructor;'],
  ["Array.prototype's iterator replaced", 'Array.prototype[Symbol.iterator] = function* () { yield "forged"; };'],
  ["Array.prototype's iterator deleted", 'delete Array.prototype[Symbol.iterator];'],
  [
    "only an attribute of Array.prototype's constructor changed",
    "Object.defineProperty(Array.prototype, 'constructor', { enumerable: true });",
  ],
  ["Uint8Array.prototype's constructor assigned", 'Uint8Array.prototype.constructor = function Forged() {};'],
  ["Uint8Array.prototype's constructor deleted", 'delete Uint8Array.prototype.constructor;'],
  [
    "%TypedArray%.prototype's constructor redefined as a getter",
    "Object.defineProperty(Object.getPrototypeOf(Int8Array).prototype, 'constructor', { get: () => Object });",
  ],
  [
    "%TypedArray%.prototype's iterator replaced",
    'Object.getPrototypeOf(Int8Array).prototype[Symbol.iterator] = function* () { yield "forged"; };',
  ],
  ["%TypedArray%.prototype's iterator deleted", 'delete Object.getPrototypeOf(Int8Array).prototype[Symbol.iterator];'],
  // Not compared after a render (D301): the prototype is not extensible, so the key cannot appear.
  [
    'an iterator added to Uint8Array.prototype',
    'try { Object.defineProperty(Uint8Array.prototype, Symbol.iterator, { value: function* () { yield "forged"; } }); } catch {}',
  ],
];

describe('a render that changes an unfrozen built-in does not reach the next render', () => {
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

describe("Object.prototype, Array.prototype and the typed arrays' prototypes are locked without Object.freeze", () => {
  it('Object.prototype is frozen, and adding or changing a property fails', async () => {
    const probe = `"use strict";
      const fails = (f) => { try { f(); return false; } catch (e) { return e instanceof TypeError; } };
      return String(Object.isFrozen(Object.prototype) &&
        fails(() => { Object.prototype.polluted = 1; }) && fails(() => { Object.prototype.toString = null; }) &&
        fails(() => { Object.prototype[0] = 1; }) && fails(() => { delete Object.prototype.hasOwnProperty; }) &&
        fails(() => Object.defineProperty(Object.prototype, '__proto__', { get() { return null; } })) &&
        !('polluted' in {}));`;
    expect(await raw(probe)).toBe('true');
  });

  it('Array.prototype takes no new property, and all but the two watched are locked', async () => {
    const probe = `"use strict";
      const fails = (f) => { try { f(); return false; } catch (e) { return e instanceof TypeError; } };
      const open = Reflect.ownKeys(Array.prototype).filter((k) => {
        const d = Object.getOwnPropertyDescriptor(Array.prototype, k);
        return d.configurable || d.writable;
      });
      return String(!Object.isExtensible(Array.prototype) && open.length === 2 &&
        open.includes('constructor') && open.includes(Symbol.iterator) &&
        fails(() => { Array.prototype.push = null; }) && fails(() => { Array.prototype[0] = 1; }) &&
        fails(() => { Array.prototype.polluted = 1; }) && fails(() => Object.setPrototypeOf(Array.prototype, null)) &&
        [1, 2, 3].slice(1).length === 2);`;
    expect(await raw(probe)).toBe('true');
  });

  it("every typed array's prototype and %TypedArray%.prototype take no new property, and all but the two watched are locked", async () => {
    const probe = `"use strict";
      const fails = (f) => { try { f(); return false; } catch (e) { return e instanceof TypeError; } };
      const ctors = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
        Float32Array, Float64Array, BigInt64Array, BigUint64Array];
      const base = Object.getPrototypeOf(Int8Array).prototype;
      const protos = [base, ...ctors.map((c) => c.prototype)];
      const openKeys = (p) => Reflect.ownKeys(p).filter((k) => {
        const d = Object.getOwnPropertyDescriptor(p, k);
        return d.configurable || d.writable;
      });
      const locked = protos.every((p) => !Object.isExtensible(p) &&
        openKeys(p).length === (p === base ? 2 : 1) && openKeys(p).includes('constructor') &&
        fails(() => { p.polluted = 1; }) && fails(() => { p[0] = 1; }) && fails(() => { p[Symbol.iterator] = null; }) === (p !== base) &&
        fails(() => Object.setPrototypeOf(p, null)) && fails(() => Object.defineProperty(p, 'length', { get: () => 0 })));
      const t = new Int32Array(2); t[1] = 7;
      return String(locked && fails(() => { Object.getPrototypeOf(Int8Array).prototype.set = null; }) &&
        !('polluted' in t) && t[1] === 7 && t.length === 2);`;
    expect(await raw(probe)).toBe('true');
  });
});

describe('RegExp is locked property by property, but for its watched Symbol.species', () => {
  it('takes no new property, and a static, a legacy static or its prototype cannot be replaced', async () => {
    const probe = `"use strict";
      const fails = (f) => { try { f(); return false; } catch (e) { return e instanceof TypeError; } };
      const open = Reflect.ownKeys(RegExp).filter((k) => {
        const d = Object.getOwnPropertyDescriptor(RegExp, k);
        return d.configurable || d.writable;
      });
      return String(!Object.isExtensible(RegExp) && open.length === 1 && open[0] === Symbol.species &&
        fails(() => { RegExp.extra = 1; }) && fails(() => Object.defineProperty(RegExp, '$1', { get: () => 'forged' })) &&
        fails(() => { delete RegExp.$1; }) && fails(() => { RegExp.prototype = {}; }) &&
        fails(() => Object.setPrototypeOf(RegExp, null)) &&
        /(b)/.test('abc') && RegExp.$1 === 'b' && 'a-b'.split(/-/).length === 2);`;
    expect(await raw(probe)).toBe('true');
  });
});

describe('the prototypes that only a call reaches are frozen too', () => {
  const REACHED = `const protos = {
      arrayIterator: Object.getPrototypeOf([][Symbol.iterator]()),
      regExpStringIterator: Object.getPrototypeOf('a'.matchAll(/a/g)),
    };`;

  it('each is frozen and refuses a replaced next, an added property and a new prototype', async () => {
    const probe = `"use strict"; ${REACHED}
      const fails = (f) => { try { f(); return false; } catch (e) { return e instanceof TypeError; } };
      return Object.entries(protos).filter(([, p]) => !(Object.isFrozen(p) &&
        fails(() => { p.next = () => ({ done: true }); }) && fails(() => { p.polluted = 1; }) &&
        fails(() => Object.setPrototypeOf(p, null)))).map(([name]) => name).join(',') || 'all locked';`;
    expect(await raw(probe)).toBe('all locked');
  });

  it('a render that tries to replace the array iterator leaves the next render iterating as before', async () => {
    const attempt = `${REACHED} try { protos.arrayIterator.next = function () { return { done: true }; }; } catch {}
      try { protos.regExpStringIterator.next = function () { return { done: true }; }; } catch {}
      return "tried";`;
    expect(await raw(attempt)).toBe('tried');
    expect(await raw('return [...[1, 2, 3]].join() + "|" + [..."a1b2".matchAll(/\\d/g)].length;')).toBe('1,2,3|2');
  });

  it('Intl.Segmenter, whose segment objects have such prototypes, is not there', async () => {
    expect(await raw('return typeof Intl.Segmenter + "|" + ("Segmenter" in Intl);')).toBe('undefined|false');
  });
});

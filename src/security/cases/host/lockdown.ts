/** HH-10: the lockdown derived from the real global object. */
import { renderRawJsForHarness } from '../../../engine-internal.js';
import type { RenderAttempt, SecurityCase } from '../../types.js';
import { judge } from '../helpers.js';

export const HH_LOCKDOWN: SecurityCase[] = [
  {
    id: 'HH-10',
    category: 'HH',
    title:
      'state left by one render on any global (decodeURI, escape, Iterator, DisposableStack...) or on the global prototype is not visible to the next render',
    async run(h) {
      const e = h.engine();
      const leave = `for (const k of Reflect.ownKeys(globalThis)) { const v = globalThis[k]; try { if (v && (typeof v === 'object' || typeof v === 'function')) { v.__leak = 1; if (v.prototype) v.prototype.__leak = 1; } } catch {} }
        try { Object.getPrototypeOf(globalThis).__leak = 1; } catch {} return '';`;
      const look = `const seen = []; for (const k of Reflect.ownKeys(globalThis)) { const v = globalThis[k]; try { if (v && (v.__leak === 1 || (v.prototype && v.prototype.__leak === 1))) seen.push(String(k)); } catch {} }
        if (Object.getPrototypeOf(globalThis).__leak === 1) seen.push('globalThis.__proto__'); return seen.join(',');`;
      await renderRawJsForHarness(e, leave, { identity: { tenant: 'hh10' } });
      const r: RenderAttempt = await renderRawJsForHarness(e, look, { identity: { tenant: 'hh10' } }).then(
        (x) => ({ output: x.output, ms: 0 }),
        (err: { code?: string; message?: string }) => ({ code: err.code ?? 'E_UNCAUGHT', message: err.message, ms: 0 }),
      );
      return judge(h, r, r.output === '', 'no global carried state to the next render');
    },
  },
];

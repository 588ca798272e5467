import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { toFloatLoose } from '../../value/convert.js';
import { checkRender } from '../../host-api/render-signal.js';
import declaration from '../../plugins/host-clock/sleep.js';

/** {sleep ms=N}: clamped to 100..1000 ms (spec), counted against the sleep budget and the wall deadline. */
export const sleep = implement(declaration, async (attrs, call, _adapter, signal) => {
  // PHP reads ms as a number: "1e308" is huge (so 1000), "abc" is 0 (so 100).
  const n = toFloatLoose(attrs.ms ?? 0);
  const asked = Number.isNaN(n) ? 100 : n;
  const ms = Math.min(1000, Math.max(100, Math.trunc(Math.min(asked, 1e9))));
  call.chargeSleep(ms);
  if (ms > call.timeLeft())
    throw new BridgeError('E_WALL_TIMEOUT', `{sleep ms=${ms}} would pass the render's wall-clock deadline`);
  // A cancelled render's sleep ends at once (the render's signal, D152), not a second later.
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
  checkRender(signal, '{sleep}');
  return {};
});

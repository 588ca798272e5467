import type { HostPlugin } from '../bridge.js';
import { BridgeError } from '../errors.js';

/** {sleep ms=N}: clamped to 100..1000 ms (spec), counted against the sleep budget and the wall deadline. */
export const sleep: HostPlugin = {
  name: 'sleep',
  async run(attrs, call) {
    const asked = typeof attrs.ms === 'number' && Number.isFinite(attrs.ms) ? attrs.ms : 100;
    const ms = Math.min(1000, Math.max(100, Math.trunc(asked)));
    call.chargeSleep(ms);
    if (ms > call.timeLeft()) throw new BridgeError('E_WALL_TIMEOUT', `{sleep ms=${ms}} would pass the render's wall-clock deadline`);
    await new Promise((resolve) => setTimeout(resolve, ms));
    return {};
  },
};

/**
 * bcrypt's cost doubles the work per step: cost 10 (PHP's default) takes about 70 ms in the
 * isolate, cost 12 about 300 ms. Costs above 12 would eat the render's time budget, so they
 * are refused (PHP allows up to 31).
 */
import { LimitError } from '../../value/limits.js';

const MAX_RENDER_BCRYPT_COST = 12;

export function checkCost(cost: number, fn: string): void {
  if (cost > MAX_RENDER_BCRYPT_COST) {
    throw new LimitError(`${fn}(): bcrypt cost ${cost} is above the ${MAX_RENDER_BCRYPT_COST} a render may spend`);
  }
}

/**
 * The render's own deadline (RenderState.tick, docs/decisions.md D187): what a generated loop's
 * check does with no deadline, before it, and after it, including after something caught the cut.
 */
import { describe, expect, it } from 'vitest';
import { SLICE_CUT, type RenderState } from '../../src/runtime/render-state.js';
import { bareRenderState } from '../support/render-state.js';

const state = bareRenderState;

/** What the generated loop line does per iteration (src/compiler/codegen/loop.ts). */
const iterate = ($: RenderState, o = '') => {
  if (o.length > $.outputCheckAt || --$.ticks < 0) $.loopCheck(o);
};

describe('the render deadline', () => {
  it('without a deadline, the checks never cut and the count starts again', () => {
    const $ = state();
    for (let i = 0; i < 10_000; i++) iterate($);
    expect($.cut).toBe(false);
    expect($.ticks).toBeGreaterThan(0);
  });

  it('before the deadline the render goes on; past it the next look at the clock cuts it', () => {
    const $ = state();
    $.startDeadline(60_000);
    for (let i = 0; i < 1_000; i++) iterate($);
    expect($.cut).toBe(false);
    const cut = state();
    cut.startDeadline(-1);
    let thrown: unknown = null;
    try {
      for (let i = 0; i < 1_000; i++) iterate(cut);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBe(SLICE_CUT);
    expect(cut.cut).toBe(true);
  });

  it('once cut, every later iteration throws at once, even after the first throw was caught', () => {
    const $ = state();
    $.startDeadline(-1);
    $.ticks = 0;
    expect(() => iterate($)).toThrow();
    for (let i = 0; i < 3; i++) expect(() => iterate($)).toThrow();
  });
});

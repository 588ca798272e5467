/**
 * A RenderState makes its loop, section, capture and plugin-state records at their first write
 * (docs/decisions.md D305): every read before that answers as Smarty 2 does for a name never
 * used, and the first write starts the records as before.
 */
import { describe, expect, it } from 'vitest';
import { bareRenderState } from '../support/render-state.js';
import { PhpArray } from '../../src/value/value.js';

const state = bareRenderState;

describe('a render state nothing has written to', () => {
  it('reads a foreach never looped as Smarty 2 does', () => {
    const $ = state();
    expect(['total', 'iteration', 'index', 'first', 'last', 'show'].map((p) => $.foreachProp('f', p))).toEqual([
      null,
      null,
      -1,
      true,
      true,
      false,
    ]);
    expect($.foreachRecord('f')).toBeNull();
  });

  it('reads a section never started, a capture never made, as null; the captures as an empty array', () => {
    const $ = state();
    expect($.sectionIndex('s')).toBeNull();
    expect($.sectionProp('s', 'total')).toBeNull();
    expect($.sectionRecord('s')).toBeNull();
    expect($.capture('default')).toBeNull();
    const all = $.captureArray() as PhpArray;
    expect(all).toBeInstanceOf(PhpArray);
    expect(all.size).toBe(0);
  });

  it('starts each kind of record at its first write and keeps it', () => {
    const $ = state();
    const f = $.foreachStart('f', 3);
    expect($.foreachStart('f', 2)).toBe(f);
    expect($.foreachProp('f', 'total')).toBe(2);
    const s = $.sectionStart('s', { loop: 4, start: undefined, step: undefined, max: undefined, show: undefined });
    expect($.sectionProp('s', 'total')).toBe(4);
    expect($.sectionStart('s', { loop: 1, start: undefined, step: undefined, max: undefined, show: undefined })).toBe(
      s,
    );
    $.captureEnd(null, 'text', null, null);
    expect($.capture('default')).toBe('text');
    expect(($.captureArray() as PhpArray).get('default')).toBe('text');
    let made = 0;
    const a = $.state('k', () => ({ n: ++made }));
    expect($.state('k', () => ({ n: ++made }))).toBe(a);
    expect(made).toBe(1);
  });
});

/** A RenderState outside any isolate, for tests of its own bookkeeping (no template, no vars). */
import { RenderState } from '../../src/runtime/render-state.js';
import { newScope } from '../../src/value/assign.js';

export const bareRenderState = (): RenderState =>
  new RenderState(newScope(), {
    templateName: 't.tpl',
    now: 1_700_000_000,
    site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
    validate: false,
    request: {},
    constants: {},
    maxIncludeDepth: 10,
    seed: Array.from({ length: 16 }, () => 1),
  });

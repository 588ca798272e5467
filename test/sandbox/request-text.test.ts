/**
 * A request without data crosses into the isolate as JSON text (docs/decisions.md D299): the
 * runtime must read it as it reads the clone, and a request JSON would not give back as it is
 * (a limit of Infinity, a clock that answered NaN, data of the embedder's) stays a clone.
 */
import ivm from 'isolated-vm';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import type { RenderRequest } from '../../src/protocol/render.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { renderRequest, requestText, withLimits, type RenderRequestInput } from '../../src/sandbox/request.js';
import { testEngine } from '../support/engine.js';
import { runtimeIsolate } from '../support/runtime-isolate.js';

const { isolate, context, render } = runtimeIsolate();

function request(over: Partial<RenderRequestInput> = {}): RenderRequest {
  return withLimits(
    renderRequest({
      templateName: 'page.tpl',
      now: 1_700_000_000,
      site: { timezone: 'Asia/Tokyo', lang: 'ja', rootUrl: 'http://localhost' },
      vars: {},
      seed: Array.from({ length: 16 }, (_, i) => i * 17),
      ...over,
    }),
    DEFAULT_LIMITS,
  );
}

let ids = 0;
/** What `source` renders with `req`, the request crossing as `form`. */
function rendered(source: string, req: RenderRequest, form: 'text' | 'clone'): unknown {
  const id = `t${++ids}`;
  const compiled = compile(source, { name: id, id });
  expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  isolate.compileScriptSync(compiled.code).runSync(context);
  const text = requestText(req);
  if (form === 'text') expect(text).not.toBeNull();
  const arg = form === 'text' ? text : new ivm.ExternalCopy(req).copyInto({ release: true });
  return render.applySync(undefined, [id, arg, 0, false, 0, false], { result: { copy: true } });
}

describe('a request as JSON text', () => {
  it('is the request, for one without data', () => {
    const req = request();
    expect(JSON.parse(requestText(req)!)).toStrictEqual(req);
    const none = request({ vars: null, returnJson: true, validate: true });
    expect(JSON.parse(requestText(none)!)).toStrictEqual(none);
  });

  it('renders as the clone renders: the clock, the site, the seed, the limits, {return}', () => {
    const source =
      '{$smarty.now}|{$smarty.template}|{$smarty.now|date_format:"%Y-%m-%d %H:%M"}|{0|mt_rand:1000000}|{$smarty.rcms_validate}|{return value=[1,2]}';
    for (const req of [request(), request({ validate: true, returnJson: true, vars: null })]) {
      const clone = rendered(source, req, 'clone');
      expect(clone).toMatchObject({ output: expect.stringMatching(/^1700000000\|page\.tpl\|2023-11-15 07:13\|\d+\|/) });
      expect(rendered(source, req, 'text')).toStrictEqual(clone);
    }
  });

  it('is not used for a request with data or with a field JSON would change', () => {
    expect(requestText(request({ vars: { x: 1 } }))).toBeNull();
    expect(requestText(request({ vars: '{}' }))).toBeNull();
    expect(requestText(request({ request: { get: {} } }))).toBeNull();
    expect(requestText(request({ constants: { SITE_KEY: 'k' } }))).toBeNull();
    // A Date has no enumerable property, but clones as a Date, where JSON writes a string.
    expect(requestText(request({ vars: new Date(0) as unknown as Record<string, unknown> }))).toBeNull();
    expect(requestText(request({ now: Number.NaN }))).toBeNull();
    expect(requestText(request({ now: -0 }))).toBeNull();
    expect(requestText({ ...request(), maxOutputChars: Infinity })).toBeNull();
    expect(requestText({ ...request(), site: undefined as unknown as RenderRequest['site'] })).toBeNull();
    expect(requestText(request({ seed: new Uint8Array(16) as unknown as number[] }))).toBeNull();
  });

  it('through the engine: a render without vars, or with empty ones, gives what one with vars gives', async () => {
    const engine = testEngine({ now: () => 1_700_000_000, seed: new Array(16).fill(3) });
    try {
      const source = '{$smarty.now}{$x|default:"-"}{0|mt_rand:1000000}';
      const withVars = await engine.render(source, { vars: { y: 1 } });
      expect((await engine.render(source, {})).output).toBe(withVars.output);
      expect((await engine.render(source, { vars: {} })).output).toBe(withVars.output);
    } finally {
      await engine.close();
    }
  });
});

/**
 * The runtime's answer on its way out of the isolate (docs/decisions.md D275, D276): it holds only
 * what the render has to say, and a short output with nothing else is the string alone. Read raw
 * from the runtime bundle in a bare isolate (what crosses), then through the engine in this
 * process and in a worker (what the embedder gets, the same either way).
 */
import ivm from 'isolated-vm';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { responseOf } from '../../src/protocol/render.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { renderRequest, withLimits } from '../../src/sandbox/request.js';
import { testEngine } from '../support/engine.js';
import { runtimeIsolate } from '../support/runtime-isolate.js';

const { isolate, context, render } = runtimeIsolate();

let ids = 0;
/** The runtime's raw answer to `source` with `vars`, copied out as the host copies it. */
function raw(source: string, vars: Record<string, unknown> = {}, returnJson = false, sliceChars = 0): unknown {
  const id = `t${++ids}`;
  isolate.compileScriptSync(compile(source, { name: id, id }).code).runSync(context);
  const body = renderRequest({
    templateName: id,
    now: 0,
    site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
    vars,
    seed: new Array(16).fill(1),
    returnJson,
  });
  const request = new ivm.ExternalCopy(withLimits(body, DEFAULT_LIMITS)).copyInto({ release: true });
  return render.applySync(undefined, [id, request, sliceChars, false, 0, false], { result: { copy: true } });
}

describe("the runtime's answer", () => {
  it('is the output alone when it is shorter than 512 characters and the render says nothing else', () => {
    expect(raw('{$x}', { x: 'a'.repeat(511) })).toBe('a'.repeat(511));
    expect(raw('{$x}', { x: 'あ'.repeat(511) })).toBe('あ'.repeat(511));
    expect(raw('')).toBe('');
  });

  it('is an object of the output alone from 512 characters on', () => {
    expect(raw('{$x}', { x: 'a'.repeat(512) })).toStrictEqual({ output: 'a'.repeat(512) });
  });

  it('carries warnings, logs and a {return} value only when there are some', () => {
    const warned = raw('{$x|escape:"html":"nope"}', { x: 'a<' }) as Record<string, unknown>;
    expect(Object.keys(warned).sort()).toEqual(['output', 'warnings', 'warningsAt']);
    const logged = raw('{logger msg1="hi"}') as Record<string, unknown>;
    expect(Object.keys(logged).sort()).toEqual(['logs', 'logsAt', 'output']);
    expect(raw('{return value=3}')).toStrictEqual({ output: '', returnValue: 3 });
    // Asked for as JSON text, a null value is still written: the embedder reads "null".
    expect(raw('x', {}, true)).toStrictEqual({ output: 'x', returnJson: 'null' });
  });

  it("is overSlice past a slice's output limit, a short output too", () => {
    expect(raw('{$x}', { x: 'abcd' }, false, 3)).toStrictEqual({ overSlice: true });
    expect(raw('{$x}', { x: 'abc' }, false, 3)).toBe('abc');
  });

  it('is an object that says so when the render changed what the lockdown watches, a short output too', () => {
    // Last in this isolate: the host would replace such a context.
    context.evalSync('delete RegExp[Symbol.species];');
    expect(raw('{$x}', { x: 'a' })).toStrictEqual({ output: 'a', contextTainted: true });
  });

  it('is read by the host as a RenderResponse', () => {
    expect(responseOf('out')).toStrictEqual({ output: 'out' });
    const r = { output: 'o', warnings: ['w'] };
    expect(responseOf(r)).toBe(r);
  });
});

describe('what the embedder gets, short or long, in this process and in a worker', () => {
  const engines = [testEngine({ workers: 0 }), testEngine()];
  for (const [i, engine] of engines.entries()) {
    it(`is the same RenderResult either way (${i === 0 ? 'workers 0' : 'a worker'})`, async () => {
      for (const x of ['short', 'l'.repeat(600)]) {
        const r = await engine.render('{$x}', { vars: { x } });
        expect(r).toMatchObject({ output: x, warnings: [], logs: [], returnValue: null });
      }
      const warned = await engine.render('{$x|escape:"html":"nope"}', { vars: { x: 'a<' } });
      expect(warned.warnings.length).toBe(1);
      expect((await engine.render('{return value=3}')).returnValue).toBe(3);
    });
  }
});

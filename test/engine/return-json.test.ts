/**
 * RenderOptions.returnJson: the value of {return} as JSON text written in the isolate, the same
 * text the host's JSON.stringify of `returnValue` gives (key order, floats, nested lists, strings
 * outside ASCII), in process and through a worker; a value JSON cannot write comes as data.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { testEngine } from '../support/engine.js';

const inProcess = createEngine({ workers: 0 });
const inWorker = testEngine();
afterAll(() => Promise.all([inProcess.close(), inWorker.close()]));

const VALUES = [
  '{return value=$v}',
  '{assign var="r.b" value=2}{assign var="r.10" value="ten"}{assign var="r.2" value=1.5}{assign var="r.a" value=$v}{return value=$r}',
  '{assign_array var=l values="x,日本語,\\"q\\""}{append var=l value=3.0}{return value=$l}',
  '{return value=""}',
  'no return here',
];

describe.each([
  ['in process', inProcess],
  ['through a worker', inWorker],
])('returnJson %s', (_, engine) => {
  it.each(VALUES)('%s: the host would have written the same text', async (source) => {
    const vars = { v: { list: [1, { k: null }], s: 'a\u2028b', n: -0, t: true } };
    const data = await engine.render(source, { vars });
    const text = await engine.render(source, { vars, returnJson: true });
    expect(text.returnJson).toBe(JSON.stringify(data.returnValue));
    expect(text.returnValue).toBeNull();
    expect(text.output).toBe(data.output);
  });

  it('an int past 2^53 has no JSON text: it comes as data', async () => {
    const r = await engine.render('{assign var=x value=$a}{add var=x value=1}{return value=$x}', {
      vars: '{"a":9007199254740992}',
      returnJson: true,
    });
    expect(r.returnJson).toBeUndefined();
    expect(r.returnValue).toBe(9007199254740993n);
  });
});

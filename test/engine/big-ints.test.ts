/**
 * 64-bit ints between the embedder, the isolate and the host (docs/decisions.md D70): variables
 * given as JavaScript data (bigints, and integral numbers past 2^53) in a worker and in
 * process, the {return value} handed back, and a host plugin's answer.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { testHost } from '../support/test-host.js';
import { testEngine } from '../support/engine.js';

const inProcess = createEngine({ workers: 0 });
afterAll(() => inProcess.close());
const inWorker = testEngine();

const VARS = {
  id: 1541815603606036480n,
  max: 2n ** 63n - 1n,
  min: -(2n ** 63n),
  over: 2n ** 64n, // past 64 bits: PHP would hold the float
  small: 5n,
  n: 2 ** 60, // a JavaScript number past 2^53 that is integral: the int it holds exactly
  f: 1e20, // past 64 bits: a float
  list: [9007199254740993n, { k: 9007199254740993n }],
};
const TPL = '{$id}|{$id+1}|{$max+1}|{$min}|{$over}|{$small+1}|{$n}|{$n+1}|{$f}|{$list.0}|{$list.1.k-1}';
const OUT =
  '1541815603606036480|1541815603606036481|9.2233720368548E+18|-9223372036854775808|1.844674407371E+19|6|1152921504606846976|1152921504606846977|1.0E+20|9007199254740993|9007199254740992';

describe('64-bit ints from the embedder', () => {
  it('bigints and integral numbers in the variables, in a worker (structured clone)', async () => {
    expect((await inWorker.render(TPL, { vars: VARS })).output).toBe(OUT);
  });
  it('the same in process', async () => {
    expect((await inProcess.render(TPL, { vars: VARS })).output).toBe(OUT);
  });
  it('numbers only, which go to a worker as JSON text', async () => {
    const vars = { n: 2 ** 60, f: 1e20, id: Number.MAX_SAFE_INTEGER };
    expect((await inWorker.render('{$n}|{$n+1}|{$f}|{$id+2}', { vars })).output).toBe(
      '1152921504606846976|1152921504606846977|1.0E+20|9007199254740993',
    );
  });
  it('hands an int past 2^53 back as a bigint', async () => {
    const r = await inProcess.render(
      '{assign var=x value=$a}{add var=x value=1}{assign var="r.id" value=$x}{assign var="r.n" value=1}{return value=$r}',
      { vars: '{"a":9007199254740992}' },
    );
    expect(r.returnValue).toEqual({ id: 9007199254740993n, n: 1 });
  });
});

describe('64-bit ints through a host plugin', () => {
  const engine = createEngine({ workers: 0, host: testHost() });
  afterAll(() => engine.close());
  it('crosses to the host and back exactly', async () => {
    const tpl =
      '{write_file path="/files/user/ids/a.jsonl" var=p value=$line}' +
      '{read_file path=$p row=e type="jsonl"}{$e.id}+1={$e.id+1} {$e.max}{/read_file}|' +
      '{write_file path="/files/user/ids/b.txt" var=q value=$id}{read_file path=$q row=l}{$l}{/read_file}';
    const vars = `{"line":"{\\"id\\":1541815603606036480,\\"max\\":9223372036854775807}","id":9007199254740993}`;
    expect((await engine.render(tpl, { vars })).output).toBe(
      '1541815603606036480+1=1541815603606036481 9223372036854775807|9007199254740993',
    );
  });
});

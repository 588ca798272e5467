import { Child } from './lib/rpc.js';
import { generate } from './data/generate.js';
import { makeHandWritten } from './engines/hand-written.js';
const want = makeHandWritten()(generate());
for (const s of process.argv.slice(2)) {
  const c = new Child(s, true); await c.ready;
  const r = await c.call<{ outputs: Record<string, string> }>('check');
  for (const [k, o] of Object.entries(r.outputs)) {
    console.log(s, k, o === want ? 'OK' : 'DIFF ' + o.length);
    const b = await c.call('calibrate', { subject: k, ms: 200 });
    const x = await c.call<any>('sample', { subject: k, ms: 300 });
    console.log('  batch', b, 'cpu/op', (x.cpuUs / x.ops).toFixed(1), 'wall/op', (x.wallUs / x.ops).toFixed(1));
  }
  await c.exit();
}

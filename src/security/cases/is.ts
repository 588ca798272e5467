/** B2. IS: isolate boundary. */
import { sourceOf } from './source.js';
import { ALLOWED_GLOBALS, GC_GLOBAL } from '../../sandbox/globals.js';
import type { SecurityCase } from '../types.js';
import { breach, judge, renders } from './helpers.js';

const callSecret = (key: string) => `rt.fn('secret')({ var: 's', key: ${key} }, $)`;

export const IS: SecurityCase[] = [
  {
    id: 'IS-01',
    category: 'IS',
    title: 'special variables expose only documented request data',
    async run(h) {
      const a = await h.render(
        '[{$smarty.server.DOCUMENT_ROOT}][{$smarty.env.PATH}][{$smarty.const.PHP_VERSION}][{$smarty.cookies}][{$smarty.get.x}]',
        { request: { get: { x: 'q' } } },
      );
      if (a.output !== '[][][][][q]') return judge(h, a, false, 'only request data');
      const b = await h.render('{$smarty.template_object}');
      return judge(h, b, b.code === 'E_SMARTY_VAR', 'no engine objects; unknown $smarty names are compile errors');
    },
  },
  breach(
    'IS-02',
    'IS',
    'the global object is exactly the allow-list (in a worker, `gc` too, holding undefined, read-only)',
    `const d = Object.getOwnPropertyDescriptor(globalThis, "${GC_GLOBAL}");
     const emptied = d !== undefined && d.value === undefined && !d.writable && !d.configurable && !("get" in d);
     return Object.getOwnPropertyNames(globalThis).filter((n) => !(n === "${GC_GLOBAL}" && emptied)).sort().join(",");`,
    (a) => a.output === [...ALLOWED_GLOBALS].sort().join(','),
    'global inventory equals the allow-list (no WebAssembly, SharedArrayBuffer, Atomics, eval, isolated-vm objects)',
  ),
  renders(
    'IS-03',
    'IS',
    'bridge results are copies: changing one changes nothing on the host',
    '{assign_globals key="k" value=$a}{assign_globals var=g key="k"}{assign var="g.polluted" value=1}{assign var="g.__proto__" value=1}{assign_globals var=g2 key="k"}{$g2|@count}',
    '1',
    { vars: { a: [1] } },
  ),
  {
    id: 'IS-04',
    category: 'IS',
    title: 'error text names the tenant-visible value only: no host path, stack or internal address',
    async run(h) {
      const a = await h.render('{secret var=s key="../../etc/passwd"}');
      // The tenant's own input is quoted back; nothing else from the host may appear.
      const rest = (a.message ?? '').replace('../../etc/passwd', '');
      const hostish = /\/(work|home|root|usr|tmp|etc)\/|node_modules|\bat \w+ \(|127\.0\.0\./.test(rest);
      return judge(h, a, a.code === 'E_SECRET_NOT_FOUND' && !hostish, 'E_SECRET_NOT_FOUND with the name only');
    },
  },
  breach(
    'IS-05',
    'IS',
    'a thrown value whose message getter never returns ends at the deadline',
    'const e = new Error("x"); Object.defineProperty(e, "message", { get() { for (;;) {} } }); throw e;',
    (a) => a.code === 'E_CPU_TIMEOUT' || a.code === 'E_WALL_TIMEOUT',
    'stopped by the CPU timeout or the wall-clock watchdog',
    { cpuMs: 200, wallMs: 1000 },
  ),
  breach(
    'IS-06',
    'IS',
    'a huge error message is truncated inside the isolate before it crosses',
    'throw new Error("x".repeat(50_000_000));',
    (a) => a.code === 'E_RUNTIME' && (a.message ?? '').length < 5000,
    'message capped at 4 KB',
  ),
  breach(
    'IS-07',
    'IS',
    'WebAssembly is absent',
    'return typeof WebAssembly + (globalThis.WebAssembly === undefined);',
    (a) => a.output === 'undefinedtrue',
    'WebAssembly is undefined',
  ),
  breach(
    'IS-08',
    'IS',
    'SharedArrayBuffer and Atomics are absent',
    'return typeof SharedArrayBuffer + typeof Atomics;',
    (a) => a.output === 'undefinedundefined',
    'both undefined',
  ),
  breach(
    'IS-09',
    'IS',
    "Function from a constructor reaches only the isolate's own global",
    'const F = (() => 0).constructor; const g = F("return this")(); return [typeof g.process, typeof g.require, typeof g.__hostCall, F("return typeof module")()].join(",");',
    (a) => a.output === 'undefined,undefined,undefined,undefined',
    'no process, require, module or bridge reference reachable',
  ),
  breach(
    'IS-10',
    'IS',
    'poisoned built-ins in the isolate change nothing (lockdown) and the host re-validates',
    `const stringify = JSON.stringify;
     try { Object.prototype.path = "/etc/passwd"; } catch {}
     try { Array.prototype.push = () => 0; } catch {}
     try { JSON.stringify = () => '{"var":"s","key":{"a":[["x","API_TOKEN"]]}}'; } catch {}
     try { String.prototype.startsWith = () => true; } catch {}
     try { Object.getPrototypeOf([][Symbol.iterator]()).next = () => ({ done: true }); } catch {}
     const held = ({}).path === undefined && JSON.stringify === stringify && [].push !== undefined && !"a".startsWith("b") &&
       [...[1, 2]].length === 2;
     let call;
     try { ${callSecret('"API_TOKEN"')}; call = "called"; } catch (e) { call = String(e.code); }
     return held + "|" + call;`,
    (a) => a.output === 'true|called' || a.output === 'true|E_BAD_ATTRIBUTE',
    'every poisoning attempt was refused by the frozen built-ins; the bridge call stayed well-formed',
  ),
  breach(
    'IS-11',
    'IS',
    'type confusion at the bridge gives E_BAD_ATTRIBUTE',
    `const out = []; const deep = {}; let d = deep; for (let i = 0; i < 100000; i++) { d.x = {}; d = d.x; }
     for (const key of [["a"], { toString() { return "API_TOKEN"; } }, 42, "K".repeat(10_000_000)]) {
       try { rt.fn('secret')({ var: 's', key }, $); out.push('called'); } catch (e) { out.push(e.code); }
     }
     return out.join(",");`,
    (a) =>
      a.output !== undefined && a.output.split(',').every((c) => c === 'E_BAD_ATTRIBUTE' || c === 'E_SECRET_NOT_FOUND'),
    'every malformed call refused by the host schema (or an ordinary not-found)',
  ),
  {
    id: 'IS-12',
    category: 'IS',
    title: 'assign_globals is scoped to (tenant, request); no state passes between tenants',
    async run(h) {
      const requestId = 'shared-request';
      await h.render('{assign_globals key="k" value="s3cret"}', { identity: { tenant: 'default', requestId } });
      const b = await h.render('[{assign_globals var=v key="k"}{$v}]', { identity: { tenant: 'victim', requestId } });
      const c = await h.rawJs('globalThis.leftover = "s3cret"; return "";');
      const d = await h.rawJs('return typeof globalThis.leftover;');
      // RegExp.prototype is not frozen (V8's fast path): a render that changes it gets its context replaced.
      const e = await h.rawJs(
        'RegExp.prototype.exec = function () { return null; }; RegExp.prototype[Symbol.replace] = () => "HIJACKED"; return "";',
      );
      const f = await h.render('{$s|regex_replace:"/a/":"b"}|{$s|escape}', { vars: { s: 'a<' } });
      return judge(
        h,
        f,
        b.output === '[]' && c.output === '' && d.output === 'undefined' && e.output === '' && f.output === 'b<|a&lt;',
        'tenant B sees nothing; globals cannot be added; a tampered RegExp does not reach the next render',
      );
    },
  },
  breach(
    'IS-13',
    'IS',
    'work scheduled after the render returns is stopped; the isolate is discarded',
    'const loop = () => Promise.resolve().then(loop); loop(); return "returned";',
    (a) => a.code === 'E_CPU_TIMEOUT' || a.output === 'returned',
    'microtask flood stopped by the timeout (or dropped with the context)',
    { cpuMs: 300 },
  ),
  {
    id: 'IS-14',
    category: 'IS',
    title: 'no compiled-code cache is ever read from data (no cachedData)',
    async run() {
      return /cachedData|produceCachedData/.test(sourceOf('sandbox/isolate-host'))
        ? { status: 'escaped', detail: 'the sandbox passes cachedData to isolated-vm' }
        : { status: 'contained', detail: 'the sandbox never passes cachedData' };
    },
  },
];

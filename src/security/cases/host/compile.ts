/** HH-06 (compile off the embedding loop, code-size cap), HH-11 (template lookups per tenant). */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Engine, EngineOptions } from '../../../engine.js';
import type { RenderIdentity } from '../../../host-api/host.js';
import type { HarnessContext, Outcome, SecurityCase } from '../../types.js';
import { judge } from '../helpers.js';

const MB = 1024 * 1024;
/** The event loop may stall this long at most while a 1 MB template is handled (a "did not hang" bound). */
const MAX_LOOP_STALL_MS = 500;

/** An engine of the case's own (closed by the case): one worker, so the tenants share it. */
async function ownEngine(h: HarnessContext, opts: EngineOptions): Promise<Engine> {
  const { createEngine } = await import('../../../engine.js');
  return createEngine({ host: h.host, timezone: 'Asia/Tokyo', ...opts });
}

export const HH_COMPILE: SecurityCase[] = [
  {
    id: 'HH-06',
    category: 'HH',
    title: "a fresh 1 MB template stalls neither the embedding event loop nor another tenant's renders",
    async run(h) {
      const e = await ownEngine(h, { workers: 1, limits: { cpuMs: 20_000, wallMs: 30_000 } });
      try {
        const bystander = () =>
          h.render('hello {$x}', { engine: e, vars: { x: 1 }, identity: { tenant: 'bystander' } });
        await bystander();
        // Dense tags: ~12 characters of code per template character, the worst found; and a
        // page of HTML with tags (~3.4), which compiles and renders.
        const attacks = [
          {
            kind: 'dense',
            source: '{section name=i loop=$l}{$l[i]}{/section}'.repeat(Math.floor(MB / 42)),
            codes: ['E_TEMPLATE_TOO_LARGE'],
          },
          {
            kind: 'page',
            source: '<li>{$item.name|escape} {if $x > 2}big{else}small{/if}</li>\n'.repeat(Math.floor(MB / 61)),
            codes: [],
          },
        ];
        const figures: Record<string, number> = {};
        for (const { kind, source, codes } of attacks) {
          const delay = monitorEventLoopDelay({ resolution: 5 });
          delay.enable();
          await new Promise((r) => setTimeout(r, 50));
          let done = false;
          const big = h
            .render(source, {
              engine: e,
              name: `${kind}.tpl`,
              vars: { l: [], item: { name: 'n' }, x: 3 },
              identity: { tenant: 'attacker' },
            })
            .finally(() => (done = true));
          const waits: number[] = [];
          while (!done) {
            const b = await bystander();
            if (b.code) return judge(h, b, false, 'the bystander rendered');
            waits.push(b.ms);
            await new Promise((r) => setTimeout(r, 10));
          }
          delay.disable();
          const a = await big;
          waits.sort((x, y) => x - y);
          Object.assign(figures, {
            [`${kind}_ms`]: Math.round(a.ms),
            [`${kind}_loop_delay_p99_ms`]: Math.round(delay.percentile(99) / 1e6),
            [`${kind}_loop_delay_max_ms`]: Math.round(delay.max / 1e6),
            [`${kind}_bystander_renders`]: waits.length,
            [`${kind}_bystander_max_ms`]: Math.round(waits.at(-1) ?? 0),
          });
          if (delay.max / 1e6 > MAX_LOOP_STALL_MS) {
            return {
              status: 'escaped',
              detail: `${kind}: the embedding event loop stood still for ${Math.round(delay.max / 1e6)} ms`,
              figures,
            };
          }
          const ended = codes.length
            ? a.code !== undefined && codes.includes(a.code) && a.line === 0
            : a.output !== undefined;
          if (!ended)
            return judge(
              h,
              a,
              false,
              `${kind}: ${codes.length ? `refused with ${codes.join(' or ')} at line 0` : 'rendered'}`,
            );
        }
        return {
          status: 'contained',
          detail: `compiled off the loop (code capped: the dense one refused); loop delay at most ${figures.dense_loop_delay_max_ms} / ${figures.page_loop_delay_max_ms} ms`,
          figures,
        };
      } finally {
        await e.close();
      }
    },
  },
  {
    id: 'HH-11',
    category: 'HH',
    title: "one engine, many tenants: no tenant reaches another's stored templates or functions",
    async run(h) {
      // The victim's template holds the other tenant's secret value: any leak shows in an output.
      const stores: Record<string, Record<string, string>> = {
        victim: { 'private.tpl': `private ${h.canaries.otherSecretValue}`, 'function:f': 'victim function' },
      };
      const lookup = (name: string, identity: RenderIdentity) => {
        const mine = Object.hasOwn(stores, identity.tenant) ? stores[identity.tenant] : {};
        return Object.hasOwn(mine, name) ? mine[name] : null;
      };
      const functionLookup = (key: string, identity: RenderIdentity) => lookup(`function:${key}`, identity);
      const e = await ownEngine(h, { workers: 1, templates: lookup, functions: functionLookup });
      const shared = await ownEngine(h, { workers: 1, templates: { 'shared.tpl': 'shared' } });
      try {
        const source = '{include file="private.tpl"}';
        const own = await h.render(source, { engine: e, name: 'page.tpl', identity: { tenant: 'victim' } });
        if (own.output !== `private ${h.canaries.otherSecretValue}`)
          return { status: 'escaped', detail: `the victim's own include did not render: ${own.code ?? own.output}` };
        // Same source and name right after the victim's (cached) compile; then every trick, inline
        // and on the compile thread (a padded template).
        const padded = `{*${'x'.repeat(8192)}*}`;
        const tricks = [
          'private.tpl',
          '../victim/private.tpl',
          'victim/private.tpl',
          'victim:private.tpl',
          'victim\u0000private.tpl',
          '/private.tpl',
          ' private.tpl',
        ];
        const mallory = (template: string, code = 'E_INCLUDE_NOT_FOUND') => ({
          engine: e,
          tenant: 'mallory',
          template,
          name: 'page.tpl',
          code,
        });
        const forms: { engine: Engine; tenant: string; template: string; name: string; code: string }[] = [
          mallory(source),
          ...tricks.flatMap((t) => ['', padded].map((head) => mallory(`${head}{include file=${JSON.stringify(t)}}`))),
          mallory('{function name="f" var=v}{$v}', 'E_FUNCTION_NOT_FOUND'),
          // Tenant and name run together ("victi" + "mpage.tpl") must not find the victim's cache entry.
          { ...mallory(source), tenant: 'victi', name: 'mpage.tpl' },
          // A Record answers only its own keys: not Object.prototype's.
          ...['constructor', '__proto__', 'toString'].map((t) => ({
            ...mallory(`{include file="${t}"}`),
            engine: shared,
          })),
        ];
        for (const f of forms) {
          const tenant = f.tenant;
          const a = await h.render(f.template, { engine: f.engine, name: f.name, identity: { tenant } });
          const o: Outcome = judge(h, a, a.code === f.code, `refused with ${f.code}`);
          if (o.status !== 'contained')
            return { ...o, detail: `${tenant}: ${JSON.stringify(f.template.slice(-60))}: ${o.detail}` };
        }
        return {
          status: 'contained',
          detail: `${forms.length} attempts refused; the victim's include rendered for the victim only`,
        };
      } finally {
        await e.close();
        await shared.close();
      }
    },
  },
];

/**
 * Cases of plugins that keep a site's rows (sessions, batches, backups) or read past its
 * permissions, on the harness host with in-memory site stores (host/site.ts): what the bridge and
 * the plugins refuse, and what reached the store anyway.
 */
import { createEngine } from '../../engine.js';
import { ROW_BUDGETS } from '../../plugins/budgets.js';
import type { RenderOptions } from '../../engine.js';
import type { HarnessContext, Outcome, RenderAttempt, SecurityCase } from '../types.js';
import { siteStores, type SiteStores } from '../host/site.js';
import { allRefused, judge } from './helpers.js';

type SiteRender = (template: string, opts?: RenderOptions) => Promise<RenderAttempt>;

/** Runs `fn` with an engine on the harness host plus fresh site stores; the engine is closed after. */
async function onSite(
  h: HarnessContext,
  fn: (render: SiteRender, s: SiteStores) => Promise<Outcome>,
): Promise<Outcome> {
  const stores = siteStores();
  const engine = createEngine({
    host: (identity) => ({ ...h.host(identity), ...stores.adapters(identity.tenant) }),
    timezone: 'Asia/Tokyo',
  });
  try {
    return await fn((template, opts = {}) => h.render(template, { ...opts, engine }), stores);
  } finally {
    await engine.close();
  }
}

const web = (memberId: number | null = null) => ({
  identity: { tenant: 'site', context: 'web' as const, memberId, superUser: memberId === 1 },
});
const batch = { identity: { tenant: 'site', context: 'batch' as const, memberId: null, superUser: false } };

export const SITE_HOST_CPU: SecurityCase[] = [
  {
    id: 'CPU-07',
    category: 'CPU',
    title: 'a batch that starts itself again and again',
    run: (h) =>
      onSite(h, async (render, s) => {
        // A batch run is a batch-context render: starting itself in a loop meets the per-render row budget.
        const max = ROW_BUDGETS.batches.perRender;
        const a = await render('{section name=i loop=100000}{batch name="self"}{/section}', batch);
        const ok = a.code === 'E_BUDGET' && s.batches.length === max;
        const o = judge(h, a, ok, `E_BUDGET after ${max} queued runs (queued ${s.batches.length})`);
        return {
          ...o,
          detail: `${o.detail}; the runner's dedupe and MAX_BATCH_DEPTH: test/site/batches/runner.test.ts`,
        };
      }),
  },
];

export const SITE_HOST_BR: SecurityCase[] = [
  {
    id: 'BR-04',
    category: 'BR',
    title: '{login} as another member: a member_id from a variable, the super user, a member of no site',
    run: (h) =>
      onSite(h, async (render, s) => {
        const forms: [string, string, RenderOptions][] = [
          ['{login member_id=$m}', 'E_IDENTITY_DENIED', { ...web(), vars: { m: 2 } }],
          ['{login member_id=1}', 'E_IDENTITY_DENIED', web()],
          ['{login member_id=999}', 'E_NOT_FOUND', web()],
          ['{assign_api_credential api_key="k" member_id=1 var=c}', 'E_IDENTITY_DENIED', web()],
        ];
        for (const [template, code, opts] of forms) {
          const a = await render(template, opts);
          const o = judge(h, a, a.code === code, `refused with ${code}`);
          if (o.status !== 'contained') return { ...o, detail: `${template}: ${o.detail}` };
        }
        if (s.sessions.length > 0)
          return { status: 'escaped', detail: `sessions were stored anyway: ${s.sessions.join(', ')}` };
        return {
          status: 'contained',
          detail:
            'a variable member_id, the super user and a stranger refused, no session stored (a real site: test/plugins/session/login.test.ts)',
        };
      }),
  },
  {
    id: 'BR-05',
    category: 'BR',
    title: 'reads that ignore permissions (read_file ignore_permission) in a web render',
    run: async (h) =>
      (await allRefused(h, [
        {
          template: '{read_file path="/files/topics/t.txt" ignore_permission=true}{$row}{/read_file}',
          codes: ['E_PERMISSION_DENIED'],
          opts: web(),
        },
        {
          template: '{read_file path="/files/topics/t.txt" ignore_permission=$yes}{$row}{/read_file}',
          codes: ['E_PERMISSION_DENIED'],
          opts: { ...web(2), vars: { yes: true } },
        },
      ])) ?? {
        status: 'contained',
        detail:
          'refused outside batch and admin-test renders (open_by_group on a real site: test/site/content/adapter.test.ts)',
      },
  },
  {
    id: 'BR-15',
    category: 'BR',
    title: 'operation quotas: backups in a loop, past the interval and the count kept',
    run: (h) =>
      onSite(h, async (render, s) => {
        const a = await render('{section name=i loop=50}{backup memo="x"}{/section}', batch);
        const made = s.backups.length;
        if (a.code !== 'E_RATE_LIMIT' || made !== 1)
          return judge(h, a, false, `E_RATE_LIMIT after one backup (made ${made})`);
        // Ten kept, each older than the interval: the count refuses.
        s.backups.splice(0);
        for (let i = 0; i < 10; i++)
          s.backups.push({ id: `old${i}`, type: 'full', memo: '', created: 1_000_000 + i, size: 1 });
        const b = await render('{backup}', batch);
        const ok = b.code === 'E_QUOTA' && s.backups.length === 10;
        return judge(
          h,
          b,
          ok,
          'one backup per 10 minutes, 10 kept (site_sync interval: test/host-bridge/plugins/sync/)',
        );
      }),
  },
  {
    id: 'BR-16',
    category: 'BR',
    title: 'plugins limited to batches and the admin test, in a web render',
    run: (h) =>
      onSite(h, async (render, s) => {
        const forms = [
          '{backup}',
          '{backup_delete backup_id="b1"}',
          '{read_file path="/files/topics/t.txt" ignore_permission=true}{/read_file}',
        ];
        for (const t of forms) {
          const a = await render(t, web(2));
          if (a.code !== 'E_PERMISSION_DENIED') return judge(h, a, false, `${t}: E_PERMISSION_DENIED`);
        }
        if (s.backups.length > 0) return { status: 'escaped', detail: 'a backup was made anyway' };
        const ok = await render('{backup result_var=b}{$b.type}', batch);
        return judge(h, ok, ok.output === 'full', 'refused in a web render of a member, allowed in a batch');
      }),
  },
];

/**
 * The second attacks round's cases on budgets (docs/security.md BR-22, BR-23, FS-24): many renders
 * of one tenant at once, on one engine or on two (two processes serving one site), against the same
 * bound, and a quota after failed writes and removals. A bound checked and then acted on in two
 * steps lets every render in between pass it.
 */
import { createEngine, type Engine } from '../../engine.js';
import type { BackupsAdapter } from '../../host-api/adapters/backups.js';
import { siteStores } from '../host/site.js';
import type { HarnessContext, Outcome, SecurityCase } from '../types.js';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { harnessTenantRoot } from '../host/files.js';
import { fsCase } from './fs.js';
import { judge } from './helpers.js';

const batch = { identity: { tenant: 'site', context: 'batch' as const, memberId: null, superUser: false } };

/**
 * Two engines (two nodes) on one site's stores, whose backups take `ms` to make, as a real archive
 * does; the store claims a backup in one step with its bounds (a local site: a row claimed under
 * the tenant's lock, test/site/backups/backup-plugins.test.ts).
 */
function twoNodes(h: HarnessContext, ms: number) {
  const stores = siteStores();
  const inner = stores.adapters('site').backups!;
  const backups: BackupsAdapter = {
    ...inner,
    create: async (memo, bounds) => {
      await new Promise((r) => setTimeout(r, ms));
      return inner.create(memo, bounds);
    },
  };
  const node = (): Engine =>
    createEngine({
      host: (identity) => ({ ...h.host(identity), ...stores.adapters(identity.tenant), backups }),
      timezone: 'Asia/Tokyo',
    });
  return { stores, nodes: [node(), node()] };
}

/** {backup} on two nodes at once: one per interval, whatever the number of nodes. */
async function backupsAtOnce(h: HarnessContext): Promise<Outcome> {
  const { stores, nodes } = twoNodes(h, 300);
  try {
    for (const e of nodes) await e.render('{$x}', { vars: { x: 1 } }).catch(() => undefined);
    const runs = await Promise.all(
      [0, 1, 0, 1].map((i) => h.render('{backup memo="race"}made', { ...batch, engine: nodes[i] })),
    );
    const made = stores.backups.length;
    const refused = runs.filter((r) => r.code === 'E_RATE_LIMIT').length;
    const odd = runs.find((r) => r.output !== 'made' && r.code !== 'E_RATE_LIMIT');
    if (odd) return judge(h, odd, false, 'each render makes its backup or is refused E_RATE_LIMIT');
    if (made !== 1 || refused !== 3)
      return {
        status: 'escaped',
        detail: `four {backup} at once on two nodes made ${made} backups (one per 10 minutes allowed), ${refused} refused`,
      };
    return { status: 'contained', detail: 'four {backup} at once on two nodes: one made, three E_RATE_LIMIT' };
  } finally {
    await Promise.all(nodes.map((e) => e.close()));
  }
}

/** Many requests of one tenant at once, each storing near the request cap: the tenant's cap holds exactly. */
async function globalsAtOnce(h: HarnessContext): Promise<Outcome> {
  const e = h.engine();
  // DEFAULT_REQUEST_GLOBALS (src/bridge/request-globals.ts, a layer the harness may not import).
  const maxRequestChars = 1024 * 1024;
  const maxTenantChars = 8 * 1024 * 1024;
  // Each request stores one value of 7/8 of its cap; the tenant's cap holds eight requests' worth at most.
  const size = Math.floor((maxRequestChars * 7) / 8);
  const n = 24;
  const runs = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      h.render(
        '{assign var=v value="x"|str_pad:$n:"x"}{assign_globals key="k" value=$v}{assign_globals var=r key="k"}{$r|strlen}',
        {
          engine: e,
          identity: { tenant: 'globals-race', requestId: `r${i}` },
          vars: { n: size },
        },
      ),
    ),
  );
  const kept = runs.filter((r) => r.output === String(size)).length;
  const refused = runs.filter((r) => r.code === 'E_QUOTA').length;
  const odd = runs.find((r) => r.output !== String(size) && r.code !== 'E_QUOTA');
  if (odd) return judge(h, odd, false, 'each request keeps its value or is refused E_QUOTA');
  const most = Math.floor(maxTenantChars / size);
  for (let i = 0; i < n; i++) e.endRequest({ tenant: 'globals-race', requestId: `r${i}` });
  if (kept > most || kept + refused !== n)
    return {
      status: 'escaped',
      detail: `${n} requests at once kept ${kept} values of ${size} characters: past the tenant's ${maxTenantChars}`,
    };
  return {
    status: 'contained',
    detail: `${n} requests of one tenant at once: ${kept} kept (the tenant's cap holds at most ${most}), ${refused} refused E_QUOTA`,
  };
}

export const BR_RACES: SecurityCase[] = [
  {
    id: 'BR-22',
    category: 'BR',
    title: '{backup} on two nodes of one site at once: one per interval',
    run: backupsAtOnce,
  },
  {
    id: 'BR-23',
    category: 'BR',
    title: "{assign_globals} from many requests of one tenant at once: the tenant's cap holds exactly",
    run: globalsAtOnce,
  },
];

/** The storage quota after failed writes, appends and deletes: refused bytes never count, deleted ones are free again. */
async function quotaAfterFailures(h: HarnessContext): Promise<Outcome> {
  const identity = { tenant: 'fs24' };
  // The harness's quota is 1 MB (HARNESS_FILE_LIMITS): three files of 300,000 fill most of it.
  const fill =
    '{section name=i loop=3}{write_file path="/files/user/q/f`$smarty.section.i.index`.txt" value=$b var=p}{/section}ok';
  const big = { b: 'x'.repeat(300_000) };
  type Step = [string, string, Record<string, unknown>, string | null];
  const steps: Step[] = [
    ['fill three files', fill, big, 'ok'],
    // Each refusal ends its render; twenty renders of each.
    ...Array.from({ length: 20 }, (): Step => [
      'a fourth past the quota',
      '{write_file path="/files/user/q/f4.txt" value=$b var=p}',
      big,
      null,
    ]),
    ...Array.from({ length: 20 }, (): Step => [
      'an append past the quota',
      '{write_file path="/files/user/q/f0.txt" value=$b is_append=1 var=p}',
      big,
      null,
    ]),
    [
      'remove the three',
      '{section name=i loop=3}{remove_file path="/files/user/q/f`$smarty.section.i.index`.txt" status_var=s}{if $s}r{/if}{/section}',
      {},
      'rrr',
    ],
    ['fill again', fill, big, 'ok'],
    [
      'clean up',
      '{section name=i loop=3}{remove_file path="/files/user/q/f`$smarty.section.i.index`.txt"}{/section}ok',
      {},
      'ok',
    ],
  ];
  for (const [k, [what, template, vars, output]] of steps.entries()) {
    // Before the removals: the file the refused appends aimed at is whole.
    if (what === 'remove the three') {
      const size = statSync(join(harnessTenantRoot(identity.tenant) ?? '', 'user/q/f0.txt')).size;
      if (size !== 300_000)
        return { status: 'escaped', detail: `after ${k} steps f0.txt holds ${size} bytes, not 300,000` };
    }
    const a = await h.render(template, { identity, vars });
    const ok = output === null ? a.code === 'E_QUOTA' : a.output === output;
    const o = judge(h, a, ok, `${what}: ${output === null ? 'E_QUOTA' : JSON.stringify(output)}`);
    if (o.status !== 'contained') return o;
  }
  return {
    status: 'contained',
    detail:
      'refused writes and 50 refused appends counted nothing; after the removals the same 900,000 bytes fit again',
  };
}

export const FS_QUOTA: SecurityCase[] = [
  fsCase('FS-24', 'the storage quota after refused writes, refused appends and removals', quotaAfterFailures),
];

/**
 * The attacks session's budget cases (docs/security.md BR-20, FS-22): rows a template makes in a
 * loop, counted against the per-render row budgets (src/plugins/budgets.ts) the harness did not
 * try yet: API tokens and files. The loop must end with E_BUDGET at the budget, with exactly the
 * budget's rows made, each whole, and the next render gets a budget of its own.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROW_BUDGETS } from '../../plugins/budgets.js';
import { harnessTenantRoot } from '../host/files.js';
import type { HarnessContext, Outcome, SecurityCase } from '../types.js';
import { fsCase } from './fs.js';
import { judge } from './helpers.js';

const LOOP = (body: string) => `{section name=i loop=100000}${body}{/section}`;

/** Tokens issued in a loop: the apiTokens budget exactly, in each render anew. */
async function tokenLoop(h: HarnessContext): Promise<Outcome> {
  const max = ROW_BUDGETS.apiTokens.perRender;
  const issue = (n: number) => `{section name=i loop=${n}}{api_token var=t type="static" api_id=1}{/section}ok`;
  for (const run of [1, 2]) {
    const full = await h.render(issue(max));
    if (full.output !== 'ok') return judge(h, full, false, `render ${run}: ${max} tokens, the budget, allowed`);
    const over = await h.render(issue(100_000));
    const o = judge(h, over, over.code === 'E_BUDGET', `render ${run}: E_BUDGET past ${max} tokens`);
    if (o.status !== 'contained') return o;
  }
  return { status: 'contained', detail: `${max} tokens a render allowed, the next refused E_BUDGET, in each render` };
}

/** Files made in a loop: E_BUDGET after the storage budget, exactly that many files, each whole. */
async function fileLoop(h: HarnessContext): Promise<Outcome> {
  const max = ROW_BUDGETS.storage.perRender;
  // A tenant of its own: the adapter keeps counting the files removed below behind its back.
  const identity = { tenant: 'fs22' };
  const temp = join(harnessTenantRoot(identity.tenant) ?? '', 'temp');
  const names = () => new Set(existsSync(temp) ? readdirSync(temp) : []);
  const before = names();
  try {
    for (const body of ['{save_file value="whole" var=v}', '{write_file value="whole" var=v}']) {
      const start = names();
      const a = await h.render(LOOP(body), { identity });
      const made = [...names()].filter((n) => !start.has(n));
      const whole = made.every((n) => readFileSync(join(temp, n), 'utf8') === 'whole');
      const o = judge(
        h,
        a,
        a.code === 'E_BUDGET' && made.length === max && whole,
        `${body}: E_BUDGET after ${max} files, each whole (made ${made.length})`,
      );
      if (o.status !== 'contained') return o;
    }
    return {
      status: 'contained',
      detail: `save_file and write_file in a loop: E_BUDGET after ${max} files in each render, each file whole`,
    };
  } finally {
    // The case's files go with it.
    for (const n of names()) if (!before.has(n)) rmSync(join(temp, n), { force: true });
  }
}

export const BR_BUDGETS: SecurityCase[] = [
  {
    id: 'BR-20',
    category: 'BR',
    title: 'API tokens issued in a loop: the per-render budget, in every render',
    run: tokenLoop,
  },
];

export const FS_BUDGETS: SecurityCase[] = [
  fsCase('FS-22', 'files made in a loop by save_file and write_file: the per-render budget, each file whole', fileLoop),
];

/** HH-01 (strtotime hang), HH-08 (uninterruptible native work). */
import type { Engine } from '../../../engine.js';
import type { HarnessContext, Outcome, RenderAttempt, SecurityCase } from '../../types.js';
import { judge } from '../helpers.js';

/**
 * Far above what the fixed code needs (a few ms of host work, or the CPU budget plus the
 * termination latency), far below what the attacks took unbounded (seconds to hours).
 */
const ANSWER_MS = 1500;

interface Attack {
  template: string;
  vars?: Record<string, unknown>;
  codes: string[];
  label: string;
}

/**
 * Renders each attack while another tenant renders on the same engine without pause, and
 * judges both: the attack must end with one of its codes within ANSWER_MS, and every bystander
 * render must succeed, none taking longer than ANSWER_MS (a blocked host loop or a killed
 * worker shows up there).
 */
async function underLoad(h: HarnessContext, e: Engine, attacks: Attack[]): Promise<Outcome> {
  const bystander = () => h.render('{$x}', { engine: e, identity: { tenant: 'bystander' }, vars: { x: 'fine' } });
  // both tenants' isolates exist before anything is timed
  const warm = await bystander();
  if (warm.output !== 'fine') return judge(h, warm, false, 'the bystander renders before the attack');
  await h.render('{$x}', { engine: e, identity: { tenant: 'attacker' }, vars: { x: 'warm' } });
  let attackMax = 0;
  let bystanderMax = 0;
  for (const at of attacks) {
    let done = false;
    const seen: RenderAttempt[] = [];
    const loop = (async () => {
      while (!done) seen.push(await bystander());
    })();
    const a = await h.render(at.template, { engine: e, identity: { tenant: 'attacker' }, vars: at.vars });
    done = true;
    await loop;
    attackMax = Math.max(attackMax, a.ms);
    const o = judge(
      h,
      a,
      a.code !== undefined && at.codes.includes(a.code) && a.ms < ANSWER_MS,
      `answered with ${at.codes.join(' or ')} within ${ANSWER_MS} ms`,
    );
    if (o.status !== 'contained') return { ...o, detail: `${at.label}: ${o.detail} (${Math.round(a.ms)} ms)` };
    for (const b of seen) {
      bystanderMax = Math.max(bystanderMax, b.ms);
      const ob = judge(h, b, b.output === 'fine' && b.ms < ANSWER_MS, `the bystander rendered within ${ANSWER_MS} ms`);
      if (ob.status !== 'contained')
        return { ...ob, detail: `while ${at.label}: ${ob.detail} (${Math.round(b.ms)} ms)` };
    }
  }
  return {
    status: 'contained',
    detail: `${attacks.length} attacks answered (slowest ${Math.round(attackMax)} ms); the bystander rendered throughout (slowest ${Math.round(bystanderMax)} ms)`,
    figures: { attack_max_ms: Math.round(attackMax), bystander_max_ms: Math.round(bystanderMax) },
  };
}

const storageUrl = (expire: string): Attack => ({
  template: `{storage_url var=u path="/files/g/report.txt" expire="${expire}"}{$u}`,
  codes: ['E_BAD_ATTRIBUTE'],
  label: `expire="${expire}"`,
});

/** 16 million nines, built in the isolate (the template and its vars stay small). */
const NINES = '{assign var=x value=""|str_pad:16000000:"9"}';
const WITHIN_BUDGET = ['E_CPU_TIMEOUT', 'E_SIZE_LIMIT'];

export const HH_COMPUTE: SecurityCase[] = [
  {
    id: 'HH-01',
    category: 'HH',
    title:
      'storage_url: strtotime on the host answers huge timestamps, huge relative amounts and long text at once; another tenant renders meanwhile',
    run: (h) =>
      underLoad(h, h.engine(), [
        // 3.5 s of the host's event loop when the normalisation walked month by month
        storageUrl('@99999999999999'),
        storageUrl('@99999999999999999'),
        ...['minutes', 'years', 'weeks', 'monday', 'months'].map((u) => storageUrl(`+9999999999999 ${u}`)),
        // the scan itself on a megabyte of relative units (built in the isolate: the template stays small)
        {
          template:
            '{assign var=e value=""|str_pad:980000:"+1 sec "}{storage_url var=u path="/files/g/report.txt" expire=$e}{$u}',
          codes: ['E_BAD_ATTRIBUTE'],
          label: 'expire= 140,000 times "+1 sec "',
        },
      ]),
  },
  {
    id: 'HH-08',
    category: 'HH',
    title:
      "natives a template sizes (BigInt of 16M digits, a regex compile, a global replace, a host call's JSON) stop within the CPU budget; another tenant renders meanwhile",
    run: (h) =>
      underLoad(h, h.engine({ cpuMs: 300 }), [
        // each of these was one native call of seconds that isolated-vm's CPU timeout could not stop
        {
          template: `${NINES}{section name=i loop=1000}{$x|intval}{/section}`,
          codes: WITHIN_BUDGET,
          label: 'intval of 16M digits, in a loop',
        },
        {
          template: `${NINES}{section name=i loop=1000}{$x|json_decode}{/section}`,
          codes: WITHIN_BUDGET,
          label: 'json_decode of 16M digits, in a loop',
        },
        {
          template: `${NINES}{section name=i loop=1000}{$x|abs}{/section}`,
          codes: WITHIN_BUDGET,
          label: 'an int|float argument of 16M digits, in a loop',
        },
        {
          template: '{assign var=p value=""|str_pad:60000:$b}{assign var=p value="/`$p`/u"}{"x"|regex_replace:$p:""}',
          vars: { b: '\\b' },
          codes: ['E_REGEX_TOO_LARGE'],
          label: 'a UTF pattern of 30,000 \\b (56 s of regex compile)',
        },
        {
          template: '{assign var=x value=""|str_pad:16000000:"@"}{$x|escape:"mail"|strlen}',
          codes: WITHIN_BUDGET,
          label: 'escape:"mail" of 16M "@" (a global replace)',
        },
        {
          template:
            '{assign var=x value=""|str_pad:16000000}{section name=i loop=40}{append var=a value=$x}{/section}{write_file var=p value=$a}',
          codes: ['E_BAD_ATTRIBUTE'],
          label: 'a host call with 640M characters of values (JSON.stringify of them)',
        },
      ]),
  },
];

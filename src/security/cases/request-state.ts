/**
 * The attacks session's request-state case (docs/security.md IS-16): two visitors of one tenant
 * are two requests. What `{assign_globals}` keeps belongs to the request that set it (IS-12 checks
 * the tenant): a render without a request id is a request of its own, another request id sees
 * nothing, and a request that ended keeps nothing.
 */
import type { SecurityCase } from '../types.js';
import { judge } from './helpers.js';

const SET = '{assign_globals key="k" value="visitor-A"}set';
const GET = '[{assign_globals var=v key="k"}{$v}]';

export const IS_REQUESTS: SecurityCase[] = [
  {
    id: 'IS-16',
    category: 'IS',
    title: "one tenant's requests: request globals never pass to another visitor's render",
    async run(h) {
      const engine = h.engine();
      const as = (requestId?: string) => ({
        engine,
        identity: requestId ? { tenant: 'is16', requestId } : { tenant: 'is16' },
      });
      const steps: [string, ReturnType<typeof as>, string, string][] = [
        [SET, as(), 'set', 'a render without a request id sets'],
        [GET, as(), '[]', 'the next render without a request id sees nothing'],
        [SET, as('visitor-a'), 'set', 'request A sets'],
        [GET, as('visitor-b'), '[]', 'request B sees nothing'],
        [GET, as('visitor-a'), '[visitor-A]', 'request A sees its own value (control)'],
      ];
      for (const [template, opts, want, what] of steps) {
        const a = await h.render(template, opts);
        const o = judge(h, a, a.output === want, what);
        if (o.status !== 'contained') return o;
      }
      engine.endRequest({ tenant: 'is16', requestId: 'visitor-a' });
      const after = await h.render(GET, as('visitor-a'));
      return judge(
        h,
        after,
        after.output === '[]',
        'no request id is a request of its own; request B never sees A; an ended request keeps nothing',
      );
    },
  },
];

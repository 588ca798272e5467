/**
 * The fourth review's attacks on what crosses the bridge for a template (docs/security.md
 * MEM-12): big strings and wide or deep arrays handed to host plugins, to the mail and HTTP
 * plugins and to the request's shared globals. Each is refused in the isolate or by the host's
 * caps with a coded error, before the host does work of that size.
 */
import type { SecurityCase } from '../types.js';
import { allRefused } from './helpers.js';

/** 16 million characters, built in the isolate (under its 16 MiB string cap). */
const BIG = '{assign var=s value="x"|str_pad:16000000:"y"}';
const DEEP = '[['.repeat(40) + '1' + ']]'.repeat(40);

export const MEM_MORE_BRIDGE: SecurityCase[] = [
  {
    id: 'MEM-12',
    category: 'MEM',
    title: 'big and deep values handed to host plugins: mail, HTTP, shared globals',
    async run(h) {
      const bad = await allRefused(h, [
        {
          template: `${BIG}{assign_globals key="k" value=$s}`,
          codes: ['E_BAD_ATTRIBUTE'],
          label: '16 M chars to assign_globals',
        },
        {
          template: `${BIG}{api endpoint="https://api.example.com/x" method="POST" body=$s status_var=q}`,
          codes: ['E_BAD_ATTRIBUTE'],
          label: '16 M chars as an {api} body',
        },
        {
          template: `${BIG}{sendmail to="a@example.com" subject="s" contents=$s}`,
          codes: ['E_BAD_ATTRIBUTE'],
          label: '16 M chars as a mail body',
        },
        {
          template: `${BIG}{sendmail to="a@example.com" subject=$s contents="b"}`,
          codes: ['E_BAD_ATTRIBUTE'],
          label: '16 M chars as a mail subject',
        },
        {
          template:
            '{assign var=s value="x"|str_pad:900000:"y"}{section name=i loop=1000}{assign_globals key=$smarty.section.i.index value=$s}{/section}',
          codes: ['E_QUOTA'],
          label: "the request globals' total",
        },
        {
          template: '{section name=i loop=100}{assign_globals key=$smarty.section.i.index value=$a}{/section}',
          codes: ['E_CPU_TIMEOUT', 'E_QUOTA', 'E_BAD_ATTRIBUTE'],
          opts: { vars: { a: Array.from({ length: 200_000 }, (_, i) => i) } },
          label: 'a 200,000-item array 100 times',
        },
        {
          template: '{assign_globals key="k" value=$a}',
          codes: ['E_BAD_ATTRIBUTE'],
          opts: { vars: { a: JSON.parse(DEEP) as unknown } },
          label: 'an array 80 levels deep',
        },
      ]);
      return bad ?? { status: 'contained', detail: '7 oversized hand-overs refused with their codes' };
    },
  },
];

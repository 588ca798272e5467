/**
 * The fourth review's address forms (docs/security.md NET-17): internal addresses spelled in ways
 * the earlier corpus did not try, given directly and as the target of a redirect from the allowed
 * server. Each must be refused before any connection (the canary listeners count connections).
 */
import { harnessHttp } from '../host/http.js';
import type { SecurityCase } from '../types.js';
import { allRefused } from './helpers.js';

const PROBE = '{api endpoint=$u status_var=s http_code_var=c}[{$s}/{$c}]';

/** Hosts (with the internal canary's port added where it has none) that name an internal address. */
function forms(port: number): string[] {
  return [
    `localhost.:${port}`,
    `LOCALHOST:${port}`,
    `LocalHost.:${port}`,
    `foo.localhost.:${port}`,
    `127\u30020\u30020\u30021:${port}`,
    `127\uff0e0\uff0e0\uff0e1:${port}`,
    `0x7f.0x0.0x0.0x1:${port}`,
    `0x7f.0.0.01:${port}`,
    `[0:0:0:0:0:0:0:1]:${port}`,
    `[::ffff:0:127.0.0.1]:${port}`,
    `[::ffff:7f00:0001]:${port}`,
    `[0000::1]:${port}`,
    '[::]',
    '[::ffff:a9fe:a9fe]',
    '[64:ff9b:1::a9fe:a9fe]',
    '[2001::]',
    '[ff02::1]',
    '0.1.2.3',
    '224.0.0.1',
    '198.18.0.1',
    '192.0.0.8',
    '240.0.0.1',
    '100.100.100.200',
    '[fc00::1]',
    '[::ffff:10.0.0.1]',
  ];
}

export const NET_MORE: SecurityCase[] = [
  {
    id: 'NET-17',
    category: 'NET',
    title: 'more spellings of internal addresses, direct and behind a redirect',
    async run(h) {
      const s = harnessHttp();
      // The shared engine's first render starts its worker: not part of any request's time.
      await h.render('{$x}', { vars: { x: 1 } });
      const hosts = forms(s.internal.port);
      const direct = hosts.map((host) => `http://${host}/`);
      const redirected = direct.map((u) => `http://api.example.com:${s.port}/redirect?to=${encodeURIComponent(u)}`);
      const bad = await allRefused(
        h,
        [...direct, ...redirected].map((u) => ({
          template: PROBE,
          codes: ['E_SSRF_DENIED', 'E_BAD_URL'],
          opts: { vars: { u } },
          label: JSON.stringify(u),
        })),
      );
      return (
        bad ?? {
          status: 'contained',
          detail: `${direct.length} spellings refused, directly and behind a redirect of the allowed server`,
        }
      );
    },
  },
];

/**
 * Plugins that fetch indirectly (NET-14): {generate_pdf} renders a page in headless Chromium, and
 * every request the page makes goes through the host's egress guard. The harness serves a page
 * from its allowed server whose image, frame, stylesheet and script fetches aim at the canary
 * listeners (internal and metadata addresses): the PDF is made, and no canary is touched (the
 * harness counts their connections after every case).
 */
import { existsSync } from 'node:fs';
import { ChromiumBrowser } from '../../host-adapters/documents/chromium.js';
import { createEngine } from '../../engine.js';
import type { SecurityCase } from '../types.js';
import { harnessHttp } from '../host/http.js';
import { judge } from './helpers.js';
import { withAdapters } from '../../host-api/resolve.js';

/** The browser the case drives: Debian's chromium (docs/environment: Playwright's download does not work here). */
const CHROMIUM = '/usr/bin/chromium';

export const DOCUMENTS: SecurityCase[] = [
  {
    id: 'NET-14',
    category: 'NET',
    title: 'a page rendered to PDF whose subresources aim at internal and metadata addresses',
    async run(h) {
      if (!existsSync(CHROMIUM))
        return { status: 'escaped', detail: `no browser at ${CHROMIUM}: the case cannot show containment` };
      const s = harnessHttp();
      const targets = [
        `http://${s.internal.host}:${s.internal.port}/x`,
        `http://${s.metadata.host}:${s.metadata.port}/latest/meta-data/`,
        'http://169.254.169.254/latest/meta-data/',
        'http://localhost:9/',
      ];
      const page = `http://127.0.0.2:${s.port}/page?${targets.map((t) => `to=${encodeURIComponent(t)}`).join('&')}`;
      const browser = new ChromiumBrowser({ pages: 1, queue: 0 });
      const engine = createEngine({
        host: withAdapters(h.host, { browser }),
        timezone: 'Asia/Tokyo',
        limits: { wallMs: 30_000 },
      });
      try {
        const a = await h.render('{generate_pdf url=$u path="/files/g/private/net14.pdf"}saved', {
          engine,
          vars: { u: page },
          identity: { tenant: 'net14' },
        });
        const direct = await h.render('{generate_pdf url=$u path="/files/g/private/net14b.pdf"}', {
          engine,
          vars: { u: targets[0] },
          identity: { tenant: 'net14' },
        });
        const ok = a.output === 'saved' && direct.code === 'E_SSRF_DENIED';
        return judge(
          h,
          ok ? a : a.output === 'saved' ? direct : a,
          ok,
          'the page saved with its internal subresources blocked; a page on an internal address refused E_SSRF_DENIED',
        );
      } finally {
        await engine.close();
        await browser.close();
      }
    },
  },
];

/**
 * A site of siteWith served alone (`serve --site`, startSiteServer) for the tests of one
 * eachBackend block: opened before them, closed and removed after. The tests read `site` and
 * `server` once the block's beforeAll has run.
 */
import { afterAll, beforeAll } from 'vitest';
import { startSiteServer } from '../../../src/site/app/app.js';
import type { FormsServer } from '../../../src/forms-ui/server/app.js';
import type { Backend } from './backends.js';
import { siteWith, type SiteChanges, type TestSite } from './site-with.js';

export interface ServedSite {
  readonly site: TestSite;
  readonly server: FormsServer;
  /** The URL of `path` on the server. */
  at(path: string): string;
}

export function servedSite(backend: Backend, changes: SiteChanges): ServedSite {
  let site: TestSite | undefined;
  let server: FormsServer | undefined;
  beforeAll(async () => {
    site = await siteWith(backend, changes);
    server = await startSiteServer({ port: 0, sites: [site], mode: 'single' });
  });
  afterAll(async () => {
    await server?.close();
    await site?.done();
  });
  const ready = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('servedSite: used before its beforeAll ran');
    return v;
  };
  return {
    get site() {
      return ready(site);
    },
    get server() {
      return ready(server);
    },
    at: (path) => `${ready(server).url}${path}`,
  };
}

/**
 * What reading the content version costs (D235): `ContentVersion.current()` with no interval,
 * i.e. one read of the store per cached request, on SQLite and (with SMARTCAGE_PG_URL) on
 * PostgreSQL; CPU of this process per read, and wall time. With the interval PostgreSQL uses
 * (100 ms) a read is a comparison of two numbers.
 *
 *   node --no-node-snapshot --import tsx bench/serve/version-read.ts [reads]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { initSite } from '../../src/site/init.js';
import { openSite } from '../../src/site/open-site.js';
import { ContentVersion } from '../../src/site/db/content-version.js';

const READS = Number(process.argv[2] ?? 5000);

async function measure(name: string, url: string | null): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-version-'));
  try {
    await initSite(dir, { siteKey: `v${randomBytes(6).toString('hex')}`, database: url });
    // `news` keeps its answers: only then does a write move the version (D257), and the row exist.
    const file = path.join(dir, 'site.json');
    const config = JSON.parse(readFileSync(file, 'utf8')) as { endpoints: { path: string; cache?: object }[] };
    config.endpoints.find((e) => e.path === 'news')!.cache = { seconds: 60 };
    writeFileSync(file, JSON.stringify(config, null, 2));
    const site = await openSite(dir);
    try {
      await site.db.run('UPDATE topic_texts SET subject = subject WHERE tenant = ?', [site.tenant]);
      for (const maxAgeMs of [0, 100]) {
        const v = new ContentVersion(site.db, site.tenant, maxAgeMs);
        for (let i = 0; i < 500; i++) await v.current();
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        for (let i = 0; i < READS; i++) await v.current();
        const wall = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        const cpuUs = (cpu.user + cpu.system) / READS;
        console.log(
          `version read: ${name}, interval ${maxAgeMs} ms: ${cpuUs.toFixed(1)} µs CPU, ${((wall * 1000) / READS).toFixed(1)} µs wall per request (${READS} sequential)`,
        );
      }
    } finally {
      await site.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await measure('sqlite', null);
if (process.env.SMARTCAGE_PG_URL) await measure('postgres', process.env.SMARTCAGE_PG_URL);

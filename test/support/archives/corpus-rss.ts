/**
 * Runs the whole hostile corpus through {unzip} on a fresh sample site (SQLite) in this process
 * and prints, as one JSON line, the process's resident memory: `baselineMiB` once the site and
 * the engine are up, `peakMiB` the high-water mark (VmHWM, reset after setup through
 * /proc/self/clear_refs) over the corpus run; then, for scale, `largeBaselineMiB` and
 * `largePeakMiB` around one honest archive near the caps (a 48 MiB entry that does not compress). The archive work runs here, on the host side of
 * the bridge; the isolate lives in a sandbox worker of its own. Linux only.
 *
 *   node --no-node-snapshot --expose-gc --import tsx test/support/archives/corpus-rss.ts
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEngine } from '../../../src/index.js';
import { initSite } from '../../../src/site/init.js';
import { openSite } from '../../../src/site/open-site.js';
import { parseVirtualPath } from '../../../src/host-adapters/files/virtual-path.js';
import { HOSTILE_CORPUS } from './hostile-corpus.js';
import { forgeZip } from '../../../src/security/zip-forge.js';

const MIB = 1024 * 1024;
const status = (field: string): number =>
  Number(
    /(\d+) kB/.exec(
      readFileSync('/proc/self/status', 'utf8')
        .split('\n')
        .find((l) => l.startsWith(field))!,
    )![1],
  ) / 1024;

const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-rss-'));
await initSite(dir, { siteKey: 'rss', database: null });
const site = await openSite(dir);
const engine = createEngine({ ...site.engineOptions(), workers: 1 });
const files = site.host.files!;
try {
  const archives: { id: string; bytes: Buffer }[] = [];
  for (const c of HOSTILE_CORPUS) archives.push({ id: c.id, bytes: await c.archive() });
  for (const a of archives) await files.writeAtomic(parseVirtualPath(`/files/g/corpus/${a.id}.zip`), a.bytes);
  archives.length = 0;
  await engine.render('{$x}', { identity: site.identity(), vars: { x: 1 } });
  globalThis.gc?.();
  const baseline = status('VmRSS:');
  writeFileSync('/proc/self/clear_refs', '5');
  const outcomes: Record<string, string> = {};
  for (const c of HOSTILE_CORPUS) {
    const t = `{unzip src="/files/g/corpus/${c.id}.zip" dest="/files/g/out/${c.id}"}ok`;
    outcomes[c.id] = await engine.render(t, { identity: site.identity() }).then(
      (r) => r.output,
      (e: { code?: string }) => e.code ?? 'error',
    );
  }
  const peak = status('VmHWM:');
  const noise = Buffer.alloc(48 * MIB);
  for (let i = 0, x = 1; i < noise.length; i++) noise[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  await files.writeAtomic(
    parseVirtualPath('/files/g/large/in.zip'),
    forgeZip([{ name: 'noise.bin', data: noise, method: 0 }]),
  );
  noise.fill(0, 0, 0);
  globalThis.gc?.();
  const largeBaseline = status('VmRSS:');
  writeFileSync('/proc/self/clear_refs', '5');
  outcomes.large = await engine
    .render('{unzip src="/files/g/large/in.zip" dest="/files/g/large/out"}ok', { identity: site.identity() })
    .then(
      (r) => r.output,
      (e: { code?: string }) => e.code ?? 'error',
    );
  const largePeak = status('VmHWM:');
  console.log(
    JSON.stringify({
      baselineMiB: Math.round(baseline),
      peakMiB: Math.round(peak),
      largeBaselineMiB: Math.round(largeBaseline),
      largePeakMiB: Math.round(largePeak),
      cases: HOSTILE_CORPUS.length,
      outcomes,
    }),
  );
} finally {
  await engine.close();
  await site.close();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * {backup} ends with its render (D184): a render killed by its wall deadline while the backup is
 * packing leaves, 2 s later, no archive, no temporary archive or folder, and no row, on both
 * store backends.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseVirtualPath } from '../../../src/index.js';
import { BACKUP_DIR } from '../../../src/site/backups/layout.js';
import { eachBackend, sampleSite } from '../support/backends.js';
import { failureOf } from '../support/site-with.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

eachBackend('{backup} of a render killed by its wall deadline', (backend) => {
  let site: Awaited<ReturnType<typeof sampleSite>>;
  beforeAll(async () => {
    site = await sampleSite(backend, { open: { engine: { limits: { wallMs: 1500, cpuMs: 1000 } } } });
    // Random bytes, 8 x 48 MiB: hashing, packing and writing them takes far longer than the deadline.
    const store = site.host.files!;
    for (let i = 0; i < 8; i++)
      await store.writeAtomic(parseVirtualPath(`/files/g/big/${i}.bin`), randomBytes(48 * 1024 * 1024));
  }, 120_000);
  afterAll(() => site.done());

  const render = (src: string) =>
    site.engines.at(0).render(src, { identity: site.identity({ memberId: null, context: 'batch' }) });
  const backups = () => {
    try {
      return readdirSync(path.join(site.dir, BACKUP_DIR));
    } catch {
      return [];
    }
  };

  it('leaves no archive, no temporary file and no row, later either', async () => {
    // The first renders start the sandbox worker (slow on a loaded machine): not what is tested.
    for (let i = 0; i < 5; i++) if ((await failureOf(render('{assign var=x value=1}'))) === 'rendered') break;
    expect(await failureOf(render('{backup memo="killed"}'))).toBe('E_WALL_TIMEOUT@1');
    await sleep(2000);
    expect(backups()).toEqual([]);
    expect(await site.host.backups!.list()).toEqual([]);
  }, 60_000);
});

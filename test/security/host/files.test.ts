/** The harness files adapter (canary detection) and the FS catalogue cases. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesAdapter, outsideFileTouched, scratchDirAdditions } from '../../../src/security/host/files.js';
import { runSecurityHarness } from '../../../src/security/harness.js';

describe('harness files adapter', () => {
  it('detects a read of the outside file and files added beside the tenants', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smartcage-fs-adapter-'));
    try {
      const outside = path.join(dir, 'outside.txt');
      fs.writeFileSync(outside, 'CANARY');
      const touches: string[] = [];
      const hostOf = await filesAdapter({
        dir,
        outsideFilePath: outside,
        outsideFileContent: 'CANARY',
        otherSecretValue: 'x',
        ownSecretValue: 'y',
        listeners: { internal: '', metadata: '' },
        touch: (w) => touches.push(w),
      });
      const host = hostOf('default');
      expect(host.files).toBeTypeOf('object');
      const state = outsideFileTouched();
      if (state === 'unavailable') return; // noatime mount: the content checks remain
      expect(state).toBe('untouched');
      // A legitimate read through the adapter does not touch it.
      const tf = host.files!;
      await tf
        .read(
          (await import('../../../src/host-adapters/files/virtual-path.js')).parseVirtualPath('/files/user/link-file'),
        )
        .catch(() => undefined);
      expect(outsideFileTouched()).toBe('untouched');
      expect(scratchDirAdditions()).toEqual([]);
      fs.readFileSync(outside);
      expect(outsideFileTouched()).toBe('touched');
      expect(touches.length).toBe(1);
      fs.writeFileSync(path.join(dir, 'escaped.txt'), '');
      expect(scratchDirAdditions()).toEqual(['escaped.txt']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('FS catalogue cases', () => {
  it('every automated FS case but the long race is contained', { timeout: 120_000 }, async () => {
    const ids = ['FS-01', 'FS-02', 'FS-03', 'FS-04', 'FS-05', 'FS-06', 'FS-08', 'FS-09', 'FS-10', 'FS-11', 'FS-12'];
    const r = await runSecurityHarness({ only: ids });
    expect(
      r.results.map((c) => [c.id, c.outcome.status, c.outcome.status === 'contained' ? '' : c.outcome.detail]),
    ).toEqual(ids.map((id) => [id, 'contained', '']));
  });
});

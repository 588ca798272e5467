import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileError } from '../../../src/host-adapters/files/errors.js';
import { TEMP_PREFIX, type WriteStep } from '../../../src/host-adapters/files/write.js';
import { MODES, type Sandbox, dec, enc, expectFileError, makeSandbox, tenant, vp } from './helpers.js';

let sb: Sandbox;
beforeEach(async () => {
  sb = await makeSandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

describe.each(MODES)('TenantFiles basics (%s mode)', (mode) => {
  it('uses the requested resolution mode', async () => {
    expect(await tenant(sb.a, { mode }).resolutionMode()).toBe(mode);
  });

  it('writes, reads, stats, lists, renames and removes below the right folders', async () => {
    const t = tenant(sb.a, { mode });
    await t.writeAtomic(vp('/files/user/a/b.csv'), enc('x,y\n1,2\n'));
    expect(fs.readFileSync(path.join(sb.a, 'user/a/b.csv'), 'utf8')).toBe('x,y\n1,2\n');
    expect(dec(await t.read(vp('/files/user/a/b.csv')))).toBe('x,y\n1,2\n');
    await t.writeAtomic(vp('/files/member/ext/9/doc.pdf'), enc('%PDF'));
    expect(fs.readFileSync(path.join(sb.a, 'member/ext/9/doc.pdf'), 'utf8')).toBe('%PDF');
    const st = await t.stat(vp('/files/user/a/b.csv'));
    expect(st).toMatchObject({ size: 8, isDir: false });
    expect(st.mtime).toBeGreaterThan(Date.now() - 60_000);
    expect((await t.stat(vp('/files/user/a'))).isDir).toBe(true);
    expect((await t.stat(vp('/files/user'))).isDir).toBe(true);
    expect(await t.exists(vp('/files/user/a/b.csv'))).toBe(true);
    expect(await t.exists(vp('/files/user/a/zz.csv'))).toBe(false);
    expect(await t.exists(vp('/files/user/a/b.csv/zz'))).toBe(false);

    await t.rename(vp('/files/user/a/b.csv'), vp('/files/ltd/moved/c.csv'));
    expect(await t.exists(vp('/files/user/a/b.csv'))).toBe(false);
    expect(dec(await t.read(vp('/files/ltd/moved/c.csv')))).toBe('x,y\n1,2\n');

    const list = await t.list(vp('/files/ltd'), { recursive: true, maxDepth: 10 });
    expect(list.map((e) => [e.path, e.isDir, e.size])).toEqual([
      ['/files/ltd/moved', true, 0],
      ['/files/ltd/moved/c.csv', false, 8],
    ]);
    await t.remove(vp('/files/ltd/moved/c.csv'));
    await expectFileError(t.read(vp('/files/ltd/moved/c.csv')), 'E_FILE_NOT_FOUND', sb);
    await t.removeDir(vp('/files/ltd/moved'));
    expect(fs.existsSync(path.join(sb.a, 'ltd/moved'))).toBe(false);
    expect(fs.existsSync(path.join(sb.a, 'ltd'))).toBe(true);
  });

  it('translates failures without real paths', async () => {
    const t = tenant(sb.a, { mode });
    await expectFileError(t.read(vp('/files/user/missing.csv')), 'E_FILE_NOT_FOUND', sb);
    await expectFileError(t.read(vp('/files/g/missing.csv')), 'E_FILE_NOT_FOUND', sb);
    await expectFileError(t.list(vp('/files/user/nope'), { recursive: false, maxDepth: 1 }), 'E_FILE_NOT_FOUND', sb);
    await expectFileError(t.remove(vp('/files/user/missing.csv')), 'E_FILE_NOT_FOUND', sb);
    await expectFileError(t.rename(vp('/files/user/missing.csv'), vp('/files/user/x.csv')), 'E_FILE_NOT_FOUND', sb);
    fs.mkdirSync(path.join(sb.a, 'user/dir'));
    await expectFileError(t.read(vp('/files/user/dir')), 'E_FILE_FAILED', sb);
    await expectFileError(t.writeAtomic(vp('/files/user/dir'), enc('x')), 'E_FILE_FAILED', sb);
    await expectFileError(t.remove(vp('/files/user/dir')), 'E_FILE_FAILED', sb);
    fs.writeFileSync(path.join(sb.a, 'user/file'), 'f');
    await expectFileError(t.writeAtomic(vp('/files/user/file/x.csv'), enc('x')), 'E_FILE_FAILED', sb);
    await expectFileError(t.removeDir(vp('/files/user/file')), 'E_FILE_FAILED', sb);
    await expectFileError(t.rename(vp('/files/user/dir'), vp('/files/user/dir2')), 'E_FILE_FAILED', sb);
    await expectFileError(t.rename(vp('/files/user/file'), vp('/files/user/dir')), 'E_FILE_FAILED', sb);
    const e = await expectFileError(t.read(vp('/files/user/missing.csv')), 'E_FILE_NOT_FOUND', sb);
    expect(e.message).toContain('"/files/user/missing.csv"');
  });

  it('FS-12: roots are never removed or written', async () => {
    const t = tenant(sb.a, { mode });
    for (const r of ['/files/user', '/files/user/', '/files/g', '/files/member/ext']) {
      await expectFileError(t.removeDir(vp(r)), 'E_PATH_DENIED', sb);
      await expectFileError(t.remove(vp(r)), 'E_PATH_DENIED', sb);
      await expectFileError(t.writeAtomic(vp(r), enc('x')), 'E_PATH_DENIED', sb);
      await expectFileError(t.appendRecord(vp(r), enc('x')), 'E_PATH_DENIED', sb);
      await expectFileError(t.rename(vp('/files/user/x'), vp(r)), 'E_PATH_DENIED', sb);
      await expectFileError(t.read(vp(r)), 'E_PATH_DENIED', sb);
    }
    expect(fs.existsSync(path.join(sb.a, 'user'))).toBe(true);
  });

  it('re-validates hand-built VirtualPath objects', async () => {
    const t = tenant(sb.a, { mode });
    const forged = [
      {
        root: '/files/user',
        segments: ['..', '..', 'tenantB', 'user', 'secret', 'canary.txt'],
        text: '/files/user/../../tenantB/user/secret/canary.txt',
        trailingSlash: false,
      },
      { root: '/files/user', segments: ['..', 'x'], text: '/files/user/a', trailingSlash: false },
      { root: '/files/g', segments: ['a'], text: '/files/user/a', trailingSlash: false },
      { root: '/etc', segments: ['passwd'], text: '/etc/passwd', trailingSlash: false },
    ];
    for (const f of forged) {
      await expectFileError(t.read(f), 'E_PATH_DENIED', sb);
      await expectFileError(t.writeAtomic(f, enc('x')), 'E_PATH_DENIED', sb);
    }
  });

  it('read cap (E_SIZE_LIMIT) and readLines', async () => {
    const t = tenant(sb.a, { mode, maxReadBytes: 100 });
    fs.writeFileSync(path.join(sb.a, 'user/ok.txt'), 'a'.repeat(100));
    fs.writeFileSync(path.join(sb.a, 'user/big.txt'), 'a'.repeat(101));
    expect((await t.read(vp('/files/user/ok.txt'))).length).toBe(100);
    await expectFileError(t.read(vp('/files/user/big.txt')), 'E_SIZE_LIMIT', sb);

    fs.writeFileSync(path.join(sb.a, 'user/lines.csv'), 'a,b\r\n\u3042,2\n\nlast');
    const lines: string[] = [];
    for await (const l of t.readLines(vp('/files/user/lines.csv'), { maxLineBytes: 10 })) lines.push(l);
    expect(lines).toEqual(['a,b', '\u3042,2', '', 'last']);

    fs.writeFileSync(path.join(sb.a, 'user/long.csv'), 'short\n' + 'x'.repeat(11) + '\n');
    const got: string[] = [];
    const err = await expectFileError(
      (async () => {
        for await (const l of t.readLines(vp('/files/user/long.csv'), { maxLineBytes: 10 })) got.push(l);
      })(),
      'E_SIZE_LIMIT',
      sb,
    );
    expect(err.reason).toBe('line-limit');
    expect(got).toEqual(['short']);
    await expectFileError(
      (async () => {
        for await (const _ of t.readLines(vp('/files/user/big.txt'), { maxLineBytes: 1000 })) void _;
      })(),
      'E_SIZE_LIMIT',
      sb,
    );
    // large file in many chunks, lines intact
    const rows = Array.from({ length: 5000 }, (_, i) => `row-${i},\u00e9\u3042`);
    fs.writeFileSync(path.join(sb.a, 'user/many.csv'), rows.join('\n') + '\n');
    const t2 = tenant(sb.a, { mode, maxReadBytes: 10 * 1024 * 1024 });
    const back: string[] = [];
    for await (const l of t2.readLines(vp('/files/user/many.csv'), { maxLineBytes: 100 })) back.push(l);
    expect(back).toEqual(rows);
  });

  it('FIFOs and hard links are refused without hanging', async () => {
    const t = tenant(sb.a, { mode });
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [path.join(sb.a, 'user/fifo')]);
    await expectFileError(t.read(vp('/files/user/fifo')), 'E_PATH_DENIED', sb);
    await expectFileError(t.appendRecord(vp('/files/user/fifo'), enc('x')), 'E_PATH_DENIED', sb);
    await expectFileError(t.writeAtomic(vp('/files/user/fifo'), enc('x')), 'E_PATH_DENIED', sb);
    fs.linkSync(sb.canaryFile, path.join(sb.a, 'user/hardlink.txt'));
    await expectFileError(t.read(vp('/files/user/hardlink.txt')), 'E_PATH_DENIED', sb);
    await expectFileError(t.appendRecord(vp('/files/user/hardlink.txt'), enc('x')), 'E_PATH_DENIED', sb);
    const lines = t.readLines(vp('/files/user/hardlink.txt'), { maxLineBytes: 100 });
    await expectFileError(lines.next(), 'E_PATH_DENIED', sb);
    expect(fs.readFileSync(sb.canaryFile, 'utf8')).toBe('CANARY-OF-TENANT-B');
    const names = (await t.list(vp('/files/user'), { recursive: false, maxDepth: 1 })).map((e) => e.path);
    expect(names).not.toContain('/files/user/fifo');
  });

  it('list: depth, entry cap, skipped names, sorted', async () => {
    const t = tenant(sb.a, { mode, maxEntries: 10 });
    fs.mkdirSync(path.join(sb.a, 'user/d1/d2/d3'), { recursive: true });
    fs.writeFileSync(path.join(sb.a, 'user/d1/d2/d3/deep.txt'), 'x');
    fs.writeFileSync(path.join(sb.a, 'user/b.txt'), 'x');
    fs.writeFileSync(path.join(sb.a, 'user/a.txt'), 'x');
    fs.writeFileSync(path.join(sb.a, 'user/.htaccess'), 'x');
    fs.writeFileSync(path.join(sb.a, 'user', TEMP_PREFIX + 'abc'), 'x');
    fs.writeFileSync(path.join(sb.a, 'user/e\u0301.txt'), 'nfd name on disk');
    fs.writeFileSync(path.join(sb.a, 'user/CON'), 'device name on disk');
    fs.writeFileSync(path.join(sb.a, 'user/tab\there'), 'x');
    fs.writeFileSync(Buffer.concat([Buffer.from(path.join(sb.a, 'user') + '/bad'), Buffer.from([0xff, 0xfe])]), 'x');
    fs.symlinkSync('..', path.join(sb.a, 'user/d1/loop'));
    const flat = await t.list(vp('/files/user'), { recursive: false, maxDepth: 99 });
    expect(flat.map((e) => e.path)).toEqual(['/files/user/a.txt', '/files/user/b.txt', '/files/user/d1']);
    const two = await t.list(vp('/files/user/'), { recursive: true, maxDepth: 2 });
    expect(two.map((e) => e.path)).toEqual([
      '/files/user/a.txt',
      '/files/user/b.txt',
      '/files/user/d1',
      '/files/user/d1/d2',
    ]);
    const all = await t.list(vp('/files/user'), { recursive: true, maxDepth: 50 });
    expect(all.map((e) => e.path)).toContain('/files/user/d1/d2/d3/deep.txt');
    for (let i = 0; i < 10; i++) fs.writeFileSync(path.join(sb.a, `user/f${i}`), 'x');
    const e = await expectFileError(t.list(vp('/files/user'), { recursive: false, maxDepth: 1 }), 'E_SIZE_LIMIT', sb);
    expect(e.reason).toBe('entry-limit');
    for (let i = 0; i < 60; i++) fs.writeFileSync(path.join(sb.a, 'user', `.hidden${i}`), 'x');
    const e2 = await expectFileError(
      t
        .list(vp('/files/user/d1'), { recursive: false, maxDepth: 1 })
        .then(() => t.list(vp('/files/user'), { recursive: false, maxDepth: 1 })),
      'E_SIZE_LIMIT',
      sb,
    );
    expect(e2.reason).toBe('entry-limit');
  });
});

describe.each(MODES)('quota (%s mode)', (mode) => {
  it('refuses writes past the quota before writing (E_QUOTA) and counts replacements by difference', async () => {
    const t = tenant(sb.a, { mode, quotaBytes: 100 });
    // tenant A starts empty
    expect(await t.usageBytes()).toBe(0);
    await t.writeAtomic(vp('/files/user/a'), new Uint8Array(60));
    await expectFileError(t.writeAtomic(vp('/files/user/b'), new Uint8Array(41)), 'E_QUOTA', sb);
    expect(fs.existsSync(path.join(sb.a, 'user/b'))).toBe(false);
    await t.writeAtomic(vp('/files/user/b'), new Uint8Array(40));
    await expectFileError(t.writeAtomic(vp('/files/user/a'), new Uint8Array(61)), 'E_QUOTA', sb);
    expect(fs.statSync(path.join(sb.a, 'user/a')).size).toBe(60);
    await t.writeAtomic(vp('/files/user/a'), new Uint8Array(10)); // shrink
    expect(await t.usageBytes()).toBe(50);
    await t.remove(vp('/files/user/b'));
    expect(await t.usageBytes()).toBe(10);
    // no temp files left behind by refused writes
    expect(fs.readdirSync(path.join(sb.a, 'user')).filter((n) => n.startsWith(TEMP_PREFIX))).toEqual([]);
  });

  it('FS-10: appending in a loop stops at the quota with whole records only', async () => {
    const t = tenant(sb.a, { mode, quotaBytes: 1000 });
    const row = enc('2024-01-01,hello,world\n'); // 23 bytes
    let n = 0;
    let err: unknown;
    for (;;) {
      try {
        await t.appendRecord(vp('/files/user/log.csv'), row);
        n++;
      } catch (e) {
        err = e;
        break;
      }
    }
    expect(err).toBeInstanceOf(FileError);
    expect((err as FileError).code).toBe('E_QUOTA');
    expect(n).toBe(Math.floor(1000 / 23));
    const content = fs.readFileSync(path.join(sb.a, 'user/log.csv'), 'utf8');
    expect(content).toBe('2024-01-01,hello,world\n'.repeat(n));
  });

  it('concurrent writers cannot overshoot the quota together', async () => {
    const t = tenant(sb.a, { mode, quotaBytes: 100 });
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) =>
        i % 2
          ? t.appendRecord(vp(`/files/user/f${i % 3}`), new Uint8Array(10))
          : t.writeAtomic(vp(`/files/temp/w${i}`), new Uint8Array(10)),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled').length).toBe(10);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as FileError).code).toBe('E_QUOTA');
    expect(await t.usageBytes()).toBe(100);
  });

  it('counts existing data of every root (symlinks not followed)', async () => {
    fs.mkdirSync(path.join(sb.a, 'g/x'), { recursive: true });
    fs.writeFileSync(path.join(sb.a, 'g/x/f'), new Uint8Array(70));
    fs.symlinkSync(sb.b, path.join(sb.a, 'user/to-b'));
    const t = tenant(sb.a, { mode, quotaBytes: 100 });
    expect(await t.usageBytes()).toBe(70);
    await expectFileError(t.writeAtomic(vp('/files/temp/y'), new Uint8Array(31)), 'E_QUOTA', sb);
    await t.writeAtomic(vp('/files/temp/y'), new Uint8Array(30));
  });
});

describe.each(MODES)('entry quota (%s mode)', (mode) => {
  it('counts files and folders; empty files in new folders stop at maxStorageEntries (E_QUOTA)', async () => {
    // tenant A starts with /user: one entry
    const t = tenant(sb.a, { mode, maxStorageEntries: 20 });
    expect(await t.usageEntries()).toBe(1);
    let made = 0;
    let err: unknown;
    for (let i = 0; i < 20; i++) {
      try {
        // a new folder and an empty file: two entries, no bytes
        await t.writeAtomic(vp(`/files/user/d${i}/x`), new Uint8Array(0));
        made++;
      } catch (e) {
        err = e;
        break;
      }
    }
    expect(made).toBe(9);
    expect((err as FileError).code).toBe('E_QUOTA');
    expect((err as FileError).message).toMatch(/at most 20 files and folders/);
    // The refused write made its folder (the 20th entry), not its file.
    expect(await t.usageEntries()).toBe(20);
    expect(fs.existsSync(path.join(sb.a, `user/d${made}/x`))).toBe(false);
    await expectFileError(t.appendRecord(vp('/files/user/log'), enc('x')), 'E_QUOTA', sb);
    await expectFileError(t.writeAtomic(vp('/files/temp/y'), enc('x')), 'E_QUOTA', sb);
    // Replacing an existing file needs no new entry.
    await t.writeAtomic(vp('/files/user/d0/x'), enc('replaced'));
    await t.appendRecord(vp('/files/user/d0/x'), enc('+'));
  });

  it('removals and moves give entries back', async () => {
    const t = tenant(sb.a, { mode, maxStorageEntries: 6 });
    await t.writeAtomic(vp('/files/user/a/1'), enc('1'));
    await t.writeAtomic(vp('/files/user/a/2'), enc('2'));
    await t.writeAtomic(vp('/files/user/b'), enc('b'));
    // user, a, a/1, a/2, b
    await expectFileError(t.writeAtomic(vp('/files/user/c/d'), enc('x')), 'E_QUOTA', sb);
    await t.rename(vp('/files/user/b'), vp('/files/user/a/1'));
    await t.remove(vp('/files/user/a/2'));
    // user, a, a/1 and the refused write's folder c
    await t.writeAtomic(vp('/files/user/c/d'), enc('x'));
    await t.removeDir(vp('/files/user/a'));
    expect(await t.usageEntries()).toBe(3);
    await t.writeAtomic(vp('/files/user/e/f/g'), enc('x'));
    await expectFileError(t.writeAtomic(vp('/files/user/h'), enc('x')), 'E_QUOTA', sb);
  });

  it('counts what was there before, of every kind', async () => {
    fs.mkdirSync(path.join(sb.a, 'g/x'), { recursive: true });
    fs.writeFileSync(path.join(sb.a, 'g/x/f'), '');
    fs.symlinkSync(sb.b, path.join(sb.a, 'user/to-b'));
    // user, user/to-b, g, g/x, g/x/f
    const t = tenant(sb.a, { mode, maxStorageEntries: 6 });
    await t.writeAtomic(vp('/files/user/one'), enc(''));
    await expectFileError(t.writeAtomic(vp('/files/user/two'), enc('')), 'E_QUOTA', sb);
    expect(await t.usageEntries()).toBe(6);
  });
});

describe.each(MODES)('atomic writes (%s mode)', (mode) => {
  const steps: WriteStep[] = ['temp-created', 'temp-written', 'temp-synced', 'before-rename'];
  for (const step of steps) {
    it(`a crash at ${step} leaves the old file, and list() ignores the leftover`, async () => {
      const old = 'OLD CONTENT\n'.repeat(100);
      await tenant(sb.a, { mode }).writeAtomic(vp('/files/user/r/report.csv'), enc(old));
      const crashing = tenant(sb.a, {
        mode,
        stepHook: (s) => {
          if (s === step) throw new Error('simulated crash');
        },
      });
      await expect(
        crashing.writeAtomic(vp('/files/user/r/report.csv'), enc('NEW CONTENT\n'.repeat(300))),
      ).rejects.toThrow('simulated crash');
      const t = tenant(sb.a, { mode });
      expect(dec(await t.read(vp('/files/user/r/report.csv')))).toBe(old);
      const leftovers = fs.readdirSync(path.join(sb.a, 'user/r')).filter((n) => n.startsWith(TEMP_PREFIX));
      expect(leftovers.length).toBe(1);
      const listed = await t.list(vp('/files/user'), { recursive: true, maxDepth: 5 });
      expect(listed.map((e) => e.path)).toEqual(['/files/user/r', '/files/user/r/report.csv']);
      expect(await t.sweepTempFiles(0)).toBe(1);
      expect(fs.readdirSync(path.join(sb.a, 'user/r'))).toEqual(['report.csv']);
    });
  }

  it('a crash after the rename leaves the new file whole', async () => {
    await tenant(sb.a, { mode }).writeAtomic(vp('/files/user/r.csv'), enc('old'));
    const crashing = tenant(sb.a, {
      mode,
      stepHook: (s) => {
        if (s === 'renamed') throw new Error('simulated crash');
      },
    });
    await expect(crashing.writeAtomic(vp('/files/user/r.csv'), enc('new!'))).rejects.toThrow('simulated crash');
    expect(fs.readFileSync(path.join(sb.a, 'user/r.csv'), 'utf8')).toBe('new!');
  });

  it('an fs failure cleans up its temp file and keeps the old content', async () => {
    await tenant(sb.a, { mode }).writeAtomic(vp('/files/user/r.csv'), enc('old'));
    // make the rename fail: put a non-empty directory where the file... instead: the target becomes a directory mid-write
    const t = tenant(sb.a, {
      mode,
      stepHook: (s) => {
        if (s === 'before-rename') {
          fs.rmSync(path.join(sb.a, 'user/r.csv'));
          fs.mkdirSync(path.join(sb.a, 'user/r.csv/sub'), { recursive: true });
        }
      },
    });
    await expectFileError(t.writeAtomic(vp('/files/user/r.csv'), enc('new')), 'E_FILE_FAILED', sb);
    expect(fs.readdirSync(path.join(sb.a, 'user')).filter((n) => n.startsWith(TEMP_PREFIX))).toEqual([]);
  });

  it('readers racing 50 replacements only ever see whole versions', async () => {
    const t = tenant(sb.a, { mode });
    const versions = Array.from({ length: 50 }, (_, i) => `v${i}:` + String(i % 10).repeat(20_000 + i * 97));
    await t.writeAtomic(vp('/files/user/hot.txt'), enc(versions[0]));
    let done = false;
    const seen = new Set<string>();
    const reader = (async () => {
      while (!done) {
        const s = dec(await t.read(vp('/files/user/hot.txt')));
        expect(versions).toContain(s);
        seen.add(s.slice(0, 4));
      }
    })();
    await Promise.all(versions.map((v) => t.writeAtomic(vp('/files/user/hot.txt'), enc(v))));
    done = true;
    await reader;
    expect(seen.size).toBeGreaterThan(0);
  });
});

describe.each(MODES)('appends (%s mode)', (mode) => {
  it('200 records from 10 concurrent writers (two instances) are all whole', async () => {
    const t1 = tenant(sb.a, { mode });
    const t2 = tenant(sb.a, { mode });
    const expected: string[] = [];
    const writers = Array.from({ length: 10 }, (_, w) => {
      const recs: string[] = [];
      for (let r = 0; r < 20; r++) {
        // varied sizes, some bigger than a pipe buffer / page
        const body = String.fromCharCode(65 + w).repeat(1 + ((w * 7919 + r * 104729) % 9000));
        recs.push(`W${w}-R${r}|${body}|END\n`);
      }
      expected.push(...recs);
      const t = w % 2 ? t1 : t2;
      return (async () => {
        for (const rec of recs) {
          await t.appendRecord(vp('/files/user/append.log'), enc(rec));
          await new Promise((res) => setImmediate(res));
        }
      })();
    });
    await Promise.all(writers);
    const content = fs.readFileSync(path.join(sb.a, 'user/append.log'), 'utf8');
    const lines = content.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.length).toBe(200);
    for (const l of lines) expect(l).toMatch(/^W(\d)-R(\d+)\|([A-J])\3*\|END$/);
    expect(lines.map((l) => l + '\n').sort()).toEqual([...expected].sort());
    // per-writer order is preserved
    for (let w = 0; w < 10; w++) {
      const rs = lines.filter((l) => l.startsWith(`W${w}-`)).map((l) => Number(/-R(\d+)/.exec(l)![1]));
      expect(rs).toEqual([...rs].sort((a, b) => a - b));
    }
  });
});

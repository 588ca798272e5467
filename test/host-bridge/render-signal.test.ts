/**
 * Host work ends with its render (docs/decisions.md D152): a render stopped by its wall deadline
 * while a plugin works on the host leaves, 2 s later, no output file, no temp file and no child
 * process behind.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { TemplateError } from '../../src/errors.js';
import { TesseractOcr } from '../../src/host-adapters/documents/tesseract.js';
import { currentRenderSignal } from '../../src/host-api/render-signal.js';
import { createFilesTestHost } from '../support/host/files.js';
import { FIXED_NOW } from '../support/engine.js';

const fh = createFilesTestHost({ limits: { quotaBytes: 1024 * 1024 * 1024, maxReadBytes: 64 * 1024 * 1024 } });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smartcage-abort-'));
// The OCR adapter's temp folders go here (os.tmpdir() reads TMPDIR), where no other test writes.
process.env.TMPDIR = tmp;
const fakeTesseract = path.join(tmp, 'slow-tesseract');
// A tesseract that never finishes; `exec` leaves one process, seen by ps as `sleep 31.5`.
const FAKE_RUN = 'sleep 31.5';
fs.writeFileSync(fakeTesseract, `#!/bin/sh\nexec ${FAKE_RUN}\n`, { mode: 0o755 });

const engine = createEngine({
  now: () => FIXED_NOW,
  workers: 1,
  limits: { wallMs: 400 },
  host: { ...fh.adapters, ocr: new TesseractOcr({ tesseract: fakeTesseract }) },
});
afterAll(async () => {
  await engine.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function put(vpath: string, data: Uint8Array): void {
  const p = path.join(fh.rootOf('default'), vpath.replace(/^\/files\//, ''));
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, data);
}

/** Every name under the tenant's files, temp files (dot names) included. */
function tree(dir = fh.rootOf('default')): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

/** This process's children whose command line holds `command`. */
function children(command: string): string[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes(command));
}

async function wallTimeout(template: string, opts: Parameters<typeof engine.render>[1] = {}): Promise<void> {
  const err = await engine.render(template, opts).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TemplateError);
  expect((err as TemplateError).code).toBe('E_WALL_TIMEOUT');
}

describe('host work stops when its render ends', () => {
  it('{gzip} of a large file stopped by the wall deadline writes nothing, later either', async () => {
    // Random bytes do not compress: zlib takes seconds over 48 MiB, far past the 400 ms deadline.
    put('/files/g/big.bin', randomBytes(48 * 1024 * 1024));
    const before = tree();
    await wallTimeout('{gzip file_url="/files/g/big.bin"}');
    await sleep(2000);
    expect(tree()).toEqual(before);
  }, 20_000);

  it('{zip} stopped by the wall deadline writes nothing, later either', async () => {
    put('/files/g/a.bin', randomBytes(24 * 1024 * 1024));
    put('/files/g/b.bin', randomBytes(24 * 1024 * 1024));
    const before = tree();
    const entries = [
      { url: '/files/g/a.bin', name: 'a' },
      { url: '/files/g/b.bin', name: 'b' },
    ];
    await wallTimeout('{zip entries=$entries dest="/files/g/out.zip"}', { vars: { entries } });
    await sleep(2000);
    expect(tree()).toEqual(before);
  }, 20_000);

  it('{detect_document_text} whose engine closes leaves no OCR process and no temp folder', async () => {
    // A long wall deadline: only the end of the render (its engine closing) can stop the OCR early.
    const closing = createEngine({
      now: () => FIXED_NOW,
      workers: 1,
      limits: { wallMs: 30_000 },
      host: { ...fh.adapters, ocr: new TesseractOcr({ tesseract: fakeTesseract }) },
    });
    put('/files/d/scan.tiff', Buffer.concat([Buffer.from('II*\0'), Buffer.alloc(1024)]));
    const render = closing
      .render('{detect_document_text var=t dir="/files/d" file_nm="scan.tiff"}', { identity: { context: 'batch' } })
      .then(
        () => null,
        (e: unknown) => e,
      );
    for (let i = 0; i < 100 && children(FAKE_RUN).length === 0; i++) await sleep(50);
    expect(children(FAKE_RUN)).toHaveLength(1);
    await closing.close();
    expect(await render).toBeInstanceOf(TemplateError);
    await sleep(2000);
    expect(children(FAKE_RUN)).toEqual([]);
    expect(fs.readdirSync(tmp).filter((n) => n.startsWith('smartcage-ocr-'))).toEqual([]);
  }, 20_000);

  it("an adapter's own work gets the render's signal where it has no argument for it (S3, database statements)", async () => {
    const seen: (AbortSignal | undefined)[] = [];
    const own = createEngine({
      now: () => FIXED_NOW,
      workers: 1,
      host: {
        secrets: {
          get: async () => {
            seen.push(currentRenderSignal());
            return { value: 'v' };
          },
        },
      },
    });
    try {
      await own.render('{secret var=s key="K"}');
      expect(seen).toHaveLength(1);
      expect(seen[0]).toBeInstanceOf(AbortSignal);
      // The render is over: whatever the adapter still ran with it is told to stop.
      expect(seen[0]!.aborted).toBe(true);
      expect(currentRenderSignal()).toBeUndefined();
    } finally {
      await own.close();
    }
  });

  it('a call a cancel cut short answers E_CANCELLED, not what its plugin made of the aborted work', async () => {
    // The adapter fails as an aborted fetch does, with an error of no code of ours: left to the
    // plugin, the template would see a host failure and go on. The cancel comes while it waits.
    const cancel = new AbortController();
    const own = createEngine({
      now: () => FIXED_NOW,
      workers: 1,
      host: {
        secrets: {
          get: () =>
            new Promise((_, reject) => {
              const signal = currentRenderSignal()!;
              signal.addEventListener('abort', () => reject(new Error('This operation was aborted')), { once: true });
              setTimeout(() => cancel.abort(), 10);
            }),
        },
      },
    });
    try {
      const err = await own.render('{secret var=s key="K"}after', { signal: cancel.signal }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(TemplateError);
      expect((err as TemplateError).code).toBe('E_CANCELLED');
    } finally {
      await own.close();
    }
  });
});

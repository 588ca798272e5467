/**
 * The bounds of the documents family's host work: a child process killed at its deadline and past
 * its output cap, the OCR temporary folder removed also when a tool fails, and the slots that cap
 * browser pages and OCR jobs (a full queue is E_HOST_BUSY at once, a wait ends at the deadline).
 */
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { runProcess } from '../../../src/host-adapters/documents/run-process.js';
import { Slots } from '../../../src/host-adapters/documents/slots.js';
import { TesseractOcr } from '../../../src/host-adapters/documents/tesseract.js';

const opts = { cwd: '/', maxOutputBytes: 1 << 20 };

describe('runProcess', () => {
  // a process left to end by itself (60 s) outlasts the test's timeout
  it('kills a process at its deadline', async () => {
    await expect(runProcess('/bin/sleep', ['60'], { ...opts, timeoutMs: 200 })).rejects.toMatchObject({
      reason: 'timeout',
    });
  }, 10_000);

  it('kills a process that prints past its cap', async () => {
    await expect(runProcess('/bin/cat', ['/dev/zero'], { ...opts, timeoutMs: 5_000 })).rejects.toMatchObject({
      reason: 'output',
    });
  });

  it('refuses a failed exit and a missing tool, and gives no shell to the arguments', async () => {
    await expect(runProcess('/bin/false', [], { ...opts, timeoutMs: 5_000 })).rejects.toMatchObject({ reason: 'exit' });
    await expect(runProcess('/no/such/tool', [], { ...opts, timeoutMs: 5_000 })).rejects.toMatchObject({
      reason: 'spawn',
    });
    expect((await runProcess('/bin/echo', ['$(id)', ';', 'x'], { ...opts, timeoutMs: 5_000 })).toString()).toBe(
      '$(id) ; x\n',
    );
  });
});

describe('TesseractOcr', () => {
  it('removes its temporary folder when a tool fails', async () => {
    const count = (): number => readdirSync(tmpdir()).filter((f) => f.startsWith('smartcage-ocr-')).length;
    const before = count();
    const ocr = new TesseractOcr({ pdftoppm: '/bin/false' });
    await expect(
      ocr.detect({ data: Buffer.from('%PDF-1.4'), kind: 'pdf', maxPages: 1, timeoutMs: 5_000 }),
    ).rejects.toMatchObject({ reason: 'exit' });
    expect(count()).toBe(before);
  });
});

describe('Slots', () => {
  it('runs at most `size` jobs, queues at most `queueCap`, refuses the rest at once', async () => {
    const slots = new Slots(1, 1, 'test pages');
    let release!: () => void;
    const first = slots.run(5_000, () => new Promise<string>((r) => (release = () => r('first'))));
    const second = slots.run(5_000, async () => 'second');
    expect(slots.load).toEqual({ running: 1, waiting: 1 });
    await expect(slots.run(5_000, async () => 'third')).rejects.toMatchObject({ code: 'E_HOST_BUSY' });
    release();
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
  });

  it('ends a wait at its deadline and frees its place in the queue', async () => {
    const slots = new Slots(1, 1, 'test pages');
    let release!: () => void;
    const first = slots.run(5_000, () => new Promise<void>((r) => (release = r)));
    await expect(slots.run(50, async () => 'late')).rejects.toMatchObject({ code: 'E_WALL_TIMEOUT' });
    expect(slots.load).toEqual({ running: 1, waiting: 0 });
    release();
    await first;
  });
});

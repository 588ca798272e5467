/**
 * Frames between the pool and a worker (src/sandbox/frames.ts) over a real socket pair: every
 * frame arrives whole and in order however the stream cuts it, a body with a lone surrogate
 * arrives as it was made, and a frame bigger than the kept buffers does not stay in memory.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, connect, type Socket } from 'node:net';
import { FrameReader, FrameWriter, textEncoding } from '../../src/sandbox/frames.js';

const open: Socket[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.destroy();
});

/** Two connected sockets on 127.0.0.1. */
async function socketPair(): Promise<[Socket, Socket]> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const accepted = new Promise<Socket>((r) => server.once('connection', r));
  const a = connect(port, '127.0.0.1');
  const b = await accepted;
  server.close();
  open.push(a, b);
  return [a, b];
}

interface Got {
  head: unknown;
  body: string;
}

function collect(enc: (head: unknown) => 'utf8' | 'utf16le' = () => 'utf8'): { frames: Got[]; reader: FrameReader } {
  const frames: Got[] = [];
  // The body is valid only during the call: read it there, as the protocol does.
  const reader = new FrameReader((head, body) => frames.push({ head, body: body.toString(enc(head)) }));
  return { frames, reader };
}

describe('frames', () => {
  it('arrive whole and in order over a socket, small and large', async () => {
    const [a, b] = await socketPair();
    const { frames, reader } = collect();
    b.on('data', (c: Buffer) => reader.push(c));
    const w = new FrameWriter(a);
    const sent = [
      { head: { n: 1, nested: { list: [1, 'two', null] } }, body: 'hello' },
      { head: { n: 2 }, body: '' },
      { head: { n: 3 }, body: 'é€😀'.repeat(200_000) },
      { head: { n: 4, map: new Map([['k', 1]]) }, body: 'after the big one' },
    ];
    for (const f of sent) w.write(f.head, f.body);
    await new Promise<void>((r) => {
      const t = setInterval(() => frames.length === sent.length && (clearInterval(t), r()), 5);
    });
    expect(frames).toEqual(sent);
  });

  it('reassembles frames cut at every byte and joined several to a chunk', async () => {
    const [a, b] = await socketPair();
    const bytes: Buffer[] = [];
    b.on('data', (c: Buffer) => bytes.push(Buffer.from(c)));
    const w = new FrameWriter(a);
    const heads = [{ i: 0 }, { i: 1, s: 'x'.repeat(300) }, { i: 2 }];
    for (const h of heads) w.write(h, `body ${JSON.stringify(h)}`);
    // What the turn gathered goes before the end, as WorkerProcess.close sends it.
    w.flush();
    a.end();
    await new Promise((r) => b.once('end', r));
    const all = Buffer.concat(bytes);
    for (let cut = 1; cut < all.length; cut++) {
      const { frames, reader } = collect();
      reader.push(all.subarray(0, cut));
      reader.push(all.subarray(cut));
      expect(frames.map((f) => f.head)).toEqual(heads);
      expect(frames.map((f) => f.body)).toEqual(heads.map((h) => `body ${JSON.stringify(h)}`));
    }
    // One byte at a time, through a chunk buffer the stream reuses (the worker reads this way).
    const { frames, reader } = collect();
    const reused = Buffer.alloc(1);
    for (const byte of all) {
      reused[0] = byte;
      reader.push(reused);
    }
    expect(frames.map((f) => f.head)).toEqual(heads);
  });

  it('carries a lone surrogate as UTF-16 and a well-formed text as UTF-8', async () => {
    const [a, b] = await socketPair();
    const { frames, reader } = collect((h) => (h as { enc: 'utf8' | 'utf16le' }).enc);
    b.on('data', (c: Buffer) => reader.push(c));
    const w = new FrameWriter(a);
    const texts = ['plain', 'lone \ud800 high', 'lone \udc00 low', 'pair 😀'];
    for (const t of texts) w.write({ enc: textEncoding(t) }, t, textEncoding(t));
    await new Promise<void>((r) => {
      const t = setInterval(() => frames.length === texts.length && (clearInterval(t), r()), 5);
    });
    expect(frames.map((f) => f.body)).toEqual(texts);
    expect(texts.map(textEncoding)).toEqual(['utf8', 'utf16le', 'utf16le', 'utf8']);
  });

  it("sends the frames of one turn in one write once the turn's promise jobs ran, in order", async () => {
    const writes: Buffer[] = [];
    const sink = { write: (b: Buffer) => writes.push(Buffer.from(b)), writableLength: 0 } as unknown as Socket;
    const w = new FrameWriter(sink);
    w.write({ i: 0 }, 'a');
    await Promise.resolve();
    w.write({ i: 1 }, 'b');
    expect(writes).toHaveLength(0);
    await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(1);
    // Past the buffer, what was gathered goes first; a frame above 1 MB goes alone.
    w.write({ i: 2 }, 'c');
    w.write({ i: 3 }, 'z'.repeat(30_000));
    w.write({ i: 4 }, 'y'.repeat(400_000));
    w.write({ i: 5 }, 'd');
    await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(5);
    const { frames, reader } = collect();
    reader.push(Buffer.concat(writes));
    expect(frames.map((f) => f.head)).toEqual([0, 1, 2, 3, 4, 5].map((i) => ({ i })));
    expect(frames[4]!.body.length).toBe(400_000);
  });

  it('does not keep the buffer of a frame larger than 1 MB once it is read', () => {
    const { frames, reader } = collect();
    const bytes: Buffer[] = [];
    const sink = { write: (b: Buffer) => bytes.push(Buffer.from(b)), writableLength: 0 } as unknown as Socket;
    const w = new FrameWriter(sink);
    w.write({ big: true }, 'y'.repeat(3 * 1024 * 1024));
    w.write({ big: false }, 'small');
    w.flush();
    const all = Buffer.concat(bytes);
    // In 64 KB chunks, as a socket delivers it: the reader must gather the big frame.
    for (let at = 0; at < all.length; at += 65536) reader.push(all.subarray(at, at + 65536));
    expect(frames.map((f) => f.head)).toEqual([{ big: true }, { big: false }]);
    expect(frames[0]!.body.length).toBe(3 * 1024 * 1024);
    const kept = (reader as unknown as { pending: Buffer }).pending.length;
    expect(kept).toBeLessThanOrEqual(1024 * 1024);
  });
});

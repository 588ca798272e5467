/**
 * The default adapter (message builder + nodemailer's SMTP transport) against a real SMTP server
 * (npm smtp-server) on 127.0.0.1: exact headers, envelope, body bytes, dot-stuffing,
 * encoded-words; STARTTLS and AUTH; failures and timeouts.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  smtpMailAdapter,
  smtpSender,
  SmtpConfigError,
  SmtpPartialError,
} from '../../../src/host-adapters/mail/smtp-adapter.js';
import { SendWindow } from '../../../src/host-adapters/mail/rate.js';
import { BridgeError } from '../../../src/host-api/errors.js';
import { withRenderSignal } from '../../../src/host-api/render-signal.js';
import type { OutgoingMail } from '../../../src/host-api/host.js';
import { startSmtp, headersOf, bodyOf, type TestSmtp } from '../../support/smtp-server.js';
import { testCertificate, type TestCertificate } from '../../support/test-certificate.js';

let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp.close());

const last = () => smtp.received[smtp.received.length - 1];

/** Independent RFC 2047 B decoder for the assertions. */
function decodeWords(v: string): string {
  const parts = [...v.matchAll(/=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=/g)];
  expect(parts.map((p) => p[0]).join(' ')).toBe(v);
  return Buffer.concat(parts.map((p) => Buffer.from(p[1], 'base64'))).toString('utf8');
}

const FIXED = Date.UTC(2023, 10, 15, 7, 13, 20);

function mail(over: Partial<OutgoingMail> = {}): OutgoingMail {
  return {
    to: ['rcpt@example.org'],
    cc: [],
    bcc: [],
    from: 'info@example.com',
    fromName: '',
    subject: 'Hello',
    body: 'Hi there.\n',
    ...over,
  };
}

describe('smtpSender (nodemailer transport)', () => {
  const send = (over: Parameters<typeof smtpSender>[0], m: OutgoingMail = mail()) => smtpSender(over).deliver('t', m);

  it('sends the envelope with a fixed EHLO name, and the server gets dot-stuffed lines back unstuffed', async () => {
    const body = '.\n..two\n.hidden\nmid.dle\n. \nend';
    const d = await send(
      { host: '127.0.0.1', port: smtp.port, heloName: 'mailer.host.example' },
      mail({ to: ['b@example.org', 'c@example.net'], body }),
    );
    const r = last();
    expect(r.helo).toBe('mailer.host.example');
    expect(r.mailFrom).toBe('info@example.com');
    expect(r.rcptTo).toEqual(['b@example.org', 'c@example.net']);
    expect(bodyOf(r.raw)).toBe(`${body.replace(/\n/g, '\r\n')}\r\n`);
    expect(headersOf(r.raw).find(([k]) => k === 'Message-ID')?.[1]).toBe(d.messageId);
    expect(d.response).toMatch(/^250/);
  });

  it('normalizes bare CR and LF so a body cannot end DATA early (SMTP smuggling)', async () => {
    const before = smtp.received.length;
    const body =
      'x\n.\nMAIL FROM:<evil@evil.example>\r\nRCPT TO:<victim@victim.example>\r\nDATA\r\nsmuggled\r.\rend\r\n';
    await send({ host: '127.0.0.1', port: smtp.port }, mail({ body }));
    expect(smtp.received.length).toBe(before + 1);
    expect(bodyOf(last().raw)).toBe(body.replace(/\r\n|\r|\n/g, '\r\n'));
    expect(last().rcptTo).toEqual(['rcpt@example.org']);
  });

  it('refuses non-canonical envelope addresses and a bad EHLO name before connecting (ML-04)', async () => {
    const before = smtp.received.length;
    const o = { host: '127.0.0.1', port: smtp.port };
    for (const from of [
      'a@example.com> SIZE=1',
      'a@example.com\r\nRCPT TO:<x@evil.example>',
      '<a@example.com>',
      'A@EXAMPLE.COM',
      '"a"@example.com',
      '',
    ]) {
      await expect(send({ ...o, returnPath: () => from })).rejects.toBeInstanceOf(SmtpConfigError);
    }
    await expect(send(o, mail({ bcc: ['b@example.org> NOTIFY=NEVER'] }))).rejects.toBeInstanceOf(SmtpConfigError);
    await expect(send(o, mail({ to: [] }))).rejects.toBeInstanceOf(SmtpConfigError);
    for (const heloName of ['x\r\nMAIL FROM:<a@b.c>', 'a b', '', 'host_name', `${'a'.repeat(64)}.example`]) {
      expect(() => smtpSender({ ...o, heloName })).toThrow(SmtpConfigError);
    }
    expect(() => smtpSender({ ...o, auth: { user: 'u', pass: 'p' }, security: 'none' })).toThrow(/without TLS/);
    expect(smtp.received.length).toBe(before);
  });

  it('checks reply codes: a refused recipient fails the send (the relay still takes it for the others)', async () => {
    const picky = await startSmtp({
      onRcptTo(addr, _s, cb) {
        cb(addr.address.startsWith('no') ? Object.assign(new Error('no such user'), { responseCode: 550 }) : null);
      },
    });
    try {
      const err: unknown = await send(
        { host: '127.0.0.1', port: picky.port },
        mail({ to: ['yes@example.org', 'no@example.org'] }),
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SmtpPartialError);
      expect(err).toMatchObject({ rejected: ['no@example.org'] });
      expect(picky.received.map((r) => r.rcptTo)).toEqual([['yes@example.org']]);
      const all: unknown = await send({ host: '127.0.0.1', port: picky.port }, mail({ to: ['no@example.org'] })).catch(
        (e: unknown) => e,
      );
      expect(all).toMatchObject({ responseCode: 550 });
      expect(picky.received).toHaveLength(1);
    } finally {
      await picky.close();
    }
  });

  describe('hostile and broken servers', () => {
    const raw: Server[] = [];
    const serve = (onConn: (s: import('node:net').Socket) => void) =>
      new Promise<number>((resolve) => {
        const s = createServer(onConn);
        raw.push(s);
        s.listen(0, '127.0.0.1', () => resolve((s.address() as { port: number }).port));
      });
    afterAll(() => Promise.all(raw.map((s) => new Promise((r) => s.close(r)))));

    // nodemailer's own default greeting timeout (10 s) would give the same error: the test's
    // timeout, 25x the 200 ms asked for, is what shows connectTimeoutMs reached it
    it('times out on a silent server', async () => {
      const port = await serve((s) => s.on('error', () => {}));
      await expect(send({ host: '127.0.0.1', port, connectTimeoutMs: 200 })).rejects.toMatchObject({
        code: 'ETIMEDOUT',
        message: 'Greeting never received',
      });
    }, 5_000);

    it('fails on a refused connection, a closed connection and a 554 greeting', async () => {
      const closed = await new Promise<number>((resolve) => {
        const s = createServer();
        s.listen(0, '127.0.0.1', () => {
          const p = (s.address() as { port: number }).port;
          s.close(() => resolve(p));
        });
      });
      const hangUp = await serve((s) => s.destroy());
      const p554 = await serve((s) => s.end('554 go away\r\n'));
      for (const port of [closed, hangUp, p554])
        await expect(send({ host: '127.0.0.1', port, connectTimeoutMs: 2000 })).rejects.toBeInstanceOf(Error);
    });

    it('stops a server that dribbles one byte at a time slower than the idle timeout', async () => {
      const port = await serve((s) => {
        s.on('error', () => {});
        s.write('220 hi\r\n');
        s.on('data', () => {
          const t = setInterval(() => (s.destroyed ? clearInterval(t) : s.write('2')), 400);
        });
      });
      // the idle timeout's own error; without commandTimeoutMs the default 30 s one outlasts the test's timeout
      await expect(send({ host: '127.0.0.1', port, commandTimeoutMs: 300 })).rejects.toMatchObject({
        code: 'ETIMEDOUT',
        message: 'Timeout',
      });
    }, 10_000);

    it("stops with the render's signal: a relay that greets after the render ended never gets the mail (D338)", async () => {
      let open = 0;
      let data = false;
      const port = await serve((s) => {
        open++;
        s.on('close', () => open--);
        s.on('error', () => {});
        s.on('data', (b: Buffer) => {
          if (/^DATA/m.test(b.toString())) data = true;
          s.write(/^DATA/m.test(b.toString()) ? '354 go\r\n' : '250 ok\r\n');
        });
        setTimeout(() => !s.destroyed && s.write('220 slow\r\n'), 500);
      });
      const render = new AbortController();
      setTimeout(() => render.abort(new Error('the render ended')), 100);
      await expect(withRenderSignal(render.signal, () => send({ host: '127.0.0.1', port }))).rejects.toMatchObject({
        code: 'EABORT',
      });
      await new Promise((r) => setTimeout(r, 700));
      expect(data).toBe(false);
      expect(open).toBe(0);
    });
  });

  describe('STARTTLS and AUTH', () => {
    let cert: TestCertificate;
    let secure: TestSmtp;
    beforeAll(async () => {
      cert = testCertificate();
      secure = await startSmtp({
        key: cert.key,
        cert: cert.cert,
        disabledCommands: [],
        authOptional: false,
        authMethods: ['PLAIN', 'LOGIN'],
        onAuth(auth, _s, cb) {
          cb(auth.username === 'relay' && auth.password === 'pässword' ? null : new Error('bad credentials'), {
            user: auth.username,
          });
        },
      });
    });
    afterAll(async () => {
      await secure.close();
      cert.remove();
    });
    const tls = () => ({ ca: cert.cert });

    it('upgrades with STARTTLS, checks the certificate, and logs in', async () => {
      await send({
        host: '127.0.0.1',
        port: secure.port,
        security: 'starttls',
        tls: tls(),
        auth: { user: 'relay', pass: 'pässword' },
      });
      expect(secure.received[secure.received.length - 1].secure).toBe(true);
    });

    it('refuses wrong credentials, an untrusted certificate, and a server without STARTTLS', async () => {
      const before = secure.received.length;
      await expect(
        send({ host: '127.0.0.1', port: secure.port, tls: tls(), auth: { user: 'relay', pass: 'wrong' } }),
      ).rejects.toMatchObject({ code: 'EAUTH' });
      await expect(
        send({ host: '127.0.0.1', port: secure.port, auth: { user: 'relay', pass: 'pässword' } }),
      ).rejects.toBeInstanceOf(Error);
      expect(secure.received.length).toBe(before);
      await expect(send({ host: '127.0.0.1', port: smtp.port, security: 'starttls' })).rejects.toBeInstanceOf(Error);
    });

    it('implicit TLS, opportunistic STARTTLS, and plain when told never to upgrade', async () => {
      const implicit = await startSmtp({ secure: true, key: cert.key, cert: cert.cert });
      const offering = await startSmtp({ key: cert.key, cert: cert.cert, disabledCommands: ['AUTH'] });
      try {
        await send({ host: '127.0.0.1', port: implicit.port, security: 'tls', tls: tls() });
        expect(implicit.received.map((r) => r.secure)).toEqual([true]);
        await send({ host: '127.0.0.1', port: offering.port, security: 'opportunistic', tls: tls() });
        await send({ host: '127.0.0.1', port: offering.port, security: 'none' });
        expect(offering.received.map((r) => r.secure)).toEqual([true, false]);
      } finally {
        await implicit.close();
        await offering.close();
      }
    });

    it('reuses pooled connections', async () => {
      const sender = smtpSender({
        host: '127.0.0.1',
        port: secure.port,
        tls: tls(),
        auth: { user: 'relay', pass: 'pässword' },
        pool: 1,
      });
      const before = secure.received.length;
      try {
        await Promise.all([1, 2, 3].map((i) => sender.deliver('t', mail({ subject: `pooled ${i}` }))));
      } finally {
        sender.close();
      }
      const got = secure.received.slice(before);
      expect(got.map((r) => headersOf(r.raw).find(([k]) => k === 'Subject')?.[1]).sort()).toEqual([
        'pooled 1',
        'pooled 2',
        'pooled 3',
      ]);
      expect(new Set(got.map((r) => r.session)).size).toBe(1);
    });
  });
});

describe('smtpMailAdapter', () => {
  const adapter = () =>
    smtpMailAdapter({
      host: '127.0.0.1',
      port: smtp.port,
      heloName: 'mx.host.example',
      verifiedDomains: { shop: ['example.com'] },
      now: () => FIXED,
    });

  it('answers the verified domains per tenant', async () => {
    const a = adapter();
    expect(await a.forTenant('shop').verifiedDomains()).toEqual(['example.com']);
    expect(await a.forTenant('other').verifiedDomains()).toEqual([]);
    expect(await a.forTenant('__proto__').verifiedDomains()).toEqual([]);
  });

  it('writes exact headers for an ASCII mail; Bcc only in the envelope', async () => {
    await adapter()
      .forTenant('shop')
      .send(
        mail({
          to: ['t1@example.org', 't2@example.org'],
          cc: ['c@example.org'],
          bcc: ['hidden@example.org'],
          fromName: 'The "Shop"',
        }),
      );
    const r = last();
    expect(r.helo).toBe('mx.host.example');
    expect(r.mailFrom).toBe('info@example.com');
    expect(r.rcptTo).toEqual(['t1@example.org', 't2@example.org', 'c@example.org', 'hidden@example.org']);
    const h = headersOf(r.raw);
    expect(h.map(([n]) => n)).toEqual([
      'Date',
      'From',
      'To',
      'Cc',
      'Subject',
      'Message-ID',
      'MIME-Version',
      'Content-Type',
      'Content-Transfer-Encoding',
    ]);
    const get = (n: string) => h.find(([k]) => k === n)?.[1];
    expect(get('Date')).toBe('Wed, 15 Nov 2023 07:13:20 +0000');
    expect(get('From')).toBe('"The \\"Shop\\"" <info@example.com>');
    expect(get('To')).toBe('t1@example.org, t2@example.org');
    expect(get('Cc')).toBe('c@example.org');
    expect(get('Subject')).toBe('Hello');
    expect(get('Message-ID')).toMatch(/^<[0-9a-f]{32}@mx\.host\.example>$/);
    expect(get('Content-Type')).toBe('text/plain; charset=UTF-8');
    expect(get('Content-Transfer-Encoding')).toBe('7bit');
    expect(r.raw.toString('latin1')).not.toMatch(/hidden@example\.org/);
    expect(bodyOf(r.raw)).toBe('Hi there.\r\n');
  });

  it('encodes a Japanese subject and sender name as encoded-words and the body as base64', async () => {
    const subject = 'ご注文ありがとうございます【重要】お支払い手続きのご案内と配送予定日について';
    const body = '山田様\n\nこの度はご注文いただき、誠にありがとうございます。\n.\n以上';
    await adapter()
      .forTenant('shop')
      .send(mail({ subject, fromName: '株式会社サンプル', body }));
    const r = last();
    const raw = r.raw.toString('latin1');
    expect(raw).toMatch(/^[\x20-\x7e\r\n\t]*$/);
    for (const line of raw.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78);
    const h = headersOf(r.raw);
    const get = (n: string) => h.find(([k]) => k === n)?.[1] ?? '';
    expect(decodeWords(get('Subject'))).toBe(subject);
    const from = get('From');
    expect(from.endsWith(' <info@example.com>')).toBe(true);
    expect(decodeWords(from.slice(0, -' <info@example.com>'.length))).toBe('株式会社サンプル');
    expect(get('Content-Transfer-Encoding')).toBe('base64');
    expect(Buffer.from(bodyOf(r.raw).replace(/\r\n/g, ''), 'base64').toString('utf8')).toBe(
      body.replace(/\n/g, '\r\n'),
    );
  });

  it('uses quoted-printable for mostly-ASCII bodies, keeping dots and bytes exact', async () => {
    const body = `Price: 1000 yen (税込)\n.\n..\nA long line ${'x'.repeat(120)} end\nTrailing space \nequals = sign`;
    await adapter().forTenant('shop').send(mail({ body }));
    const r = last();
    expect(headersOf(r.raw).find(([k]) => k === 'Content-Transfer-Encoding')?.[1]).toBe('quoted-printable');
    const qp = bodyOf(r.raw);
    for (const line of qp.split('\r\n')) expect(line.length).toBeLessThanOrEqual(76);
    const decoded = Buffer.from(
      qp.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
    expect(decoded).toBe(`${body.replace(/\n/g, '\r\n')}\r\n`.replace(/\r\n\r\n$/, '\r\n'));
  });

  it('sends sg_custom_args as one ASCII JSON header', async () => {
    await adapter()
      .forTenant('shop')
      .send(mail({ customArgs: { campaign: 'spring', note: 'ß & "q"' } }));
    const h = headersOf(last().raw);
    const v = h.find(([k]) => k === 'X-Custom-Args')?.[1] ?? '';
    expect(JSON.parse(v)).toEqual({ campaign: 'spring', note: 'ß & "q"' });
    expect(v).toMatch(/^[\x20-\x7e]*$/);
  });

  it('refuses header values with line breaks even when called directly (defence in depth)', async () => {
    const before = smtp.received.length;
    for (const m of [
      mail({ subject: 'x\r\nBcc: a@evil.example' }),
      mail({ fromName: 'x\nBcc: a@evil.example' }),
      mail({ to: ['a@example.org\r\nBcc: b@evil.example'] }),
    ]) {
      const err = await adapter()
        .forTenant('shop')
        .send(m)
        .catch((e) => e);
      expect(err).toBeInstanceOf(Error);
    }
    expect(smtp.received.length).toBe(before);
  });

  it('keeps a per-tenant sliding window (E_RATE_LIMIT), counting failed attempts too', async () => {
    let now = 0;
    const window = new SendWindow({ messages: 2, recipients: 100, windowMs: 1000, now: () => now });
    const a = smtpMailAdapter({ host: '127.0.0.1', port: smtp.port, verifiedDomains: {}, window });
    await a.forTenant('t').send(mail());
    await a.forTenant('t').send(mail());
    const err = await a
      .forTenant('t')
      .send(mail())
      .catch((e) => e);
    expect(err).toBeInstanceOf(BridgeError);
    expect(err.code).toBe('E_RATE_LIMIT');
    await a.forTenant('other').send(mail()); // per tenant
    now = 1500;
    await a.forTenant('t').send(mail()); // the window slid
    const failing = smtpMailAdapter({
      host: '127.0.0.1',
      port: 1,
      verifiedDomains: {},
      window: new SendWindow({ messages: 1, now: () => 0 }),
    });
    await expect(failing.forTenant('t').send(mail())).rejects.not.toBeInstanceOf(BridgeError);
    await expect(failing.forTenant('t').send(mail())).rejects.toMatchObject({ code: 'E_RATE_LIMIT' });
    const big = new SendWindow({ recipients: 3 });
    big.take('t', 3);
    expect(() => big.take('t', 1)).toThrow(/recipients/);
  });
});

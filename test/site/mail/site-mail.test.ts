/**
 * {sendmail} on a local site, through the real engine, against a real SMTP relay on 127.0.0.1
 * (smtp-server with STARTTLS and AUTH): the envelope (bcc only there), headers, Japanese
 * subject and body, the default sender, member recipients, message templates, the outbox rows,
 * failed deliveries and the hourly window; on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { createEngine, TemplateError, type Engine } from '../../../src/index.js';
import { eachBackend, type Backend } from '../support/backends.js';
import { siteWith, type SiteChanges, type TestSite } from '../support/site-with.js';
import { startRelay, type MailRelay } from '../support/mail-relay.js';
import { listOutbox } from '../../../src/site/mail/outbox.js';
import { headersOf } from '../../support/smtp-server.js';

interface MailSite {
  site: TestSite;
  render(source: string, memberId?: number | null): Promise<string>;
  failure(source: string): Promise<string>;
  close(): Promise<void>;
}

async function mailSite(backend: Backend, changes: SiteChanges): Promise<MailSite> {
  const site = await siteWith(backend, changes);
  const engine: Engine = createEngine({ ...site.engineOptions(), workers: 1 });
  const render = async (source: string, memberId: number | null = null) =>
    (await engine.render(source, { name: 'page.tpl', identity: site.identity({ memberId }) })).output;
  return {
    site,
    render,
    async failure(source) {
      try {
        await render(source);
      } catch (e) {
        if (e instanceof TemplateError) return `${e.code}@${e.line}`;
        throw e;
      }
      return 'rendered';
    },
    async close() {
      await engine.close();
      await site.done();
    },
  };
}

const OK = '{if $ok}sent{else}not sent{/if}';

eachBackend('sendmail on a local site with a relay', (backend) => {
  let relay: MailRelay;
  let s: MailSite;
  beforeAll(async () => {
    relay = await startRelay({
      onRcptTo(addr, _session, cb) {
        cb(
          addr.address.startsWith('bounce') ? Object.assign(new Error('no such mailbox'), { responseCode: 550 }) : null,
        );
      },
    });
    s = await mailSite(backend, relay.site());
  });
  afterAll(async () => {
    await s?.close();
    await relay?.close();
  });
  const last = () => relay.received[relay.received.length - 1];

  it('sends from the default sender over STARTTLS with AUTH; bcc only in the envelope; Japanese encoded', async () => {
    const subject = 'ご注文ありがとうございます【重要】';
    const body = '山田様\n\nこの度はご注文いただき、誠にありがとうございます。\n.\n以上';
    const out = await s.render(
      `{sendmail var=ok to="buyer@example.org" cc="shop@example.net" bcc="audit@example.net" subject=$s contents=$b}${OK}`
        .replace('$s', JSON.stringify(subject))
        .replace('$b', JSON.stringify(body)),
    );
    expect(out).toBe('sent');
    const r = last();
    expect(r.secure).toBe(true);
    expect(r.user).toBe('relay');
    expect(r.helo).toBe('localhost');
    expect(r.mailFrom).toBe('info@example.com');
    expect(r.rcptTo).toEqual(['buyer@example.org', 'shop@example.net', 'audit@example.net']);
    expect(r.raw.toString('latin1')).not.toContain('audit@example.net');
    expect(r.raw.toString('latin1')).toMatch(/^[\x20-\x7e\r\n\t]*$/);
    const m = await simpleParser(r.raw);
    expect(m.subject).toBe(subject);
    expect(m.text).toBe(body);
    expect(headersOf(r.raw).map(([k]) => k)).toEqual([
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
    expect(m.from?.value).toEqual([{ address: 'info@example.com', name: 'Demo site' }]);
    expect(m.headers.get('bcc')).toBeUndefined();
    const [row] = await listOutbox(s.site, 1);
    expect(row).toMatchObject({
      status: 'sent',
      from: 'info@example.com',
      fromName: 'Demo site',
      to: ['buyer@example.org'],
      cc: ['shop@example.net'],
      bcc: ['audit@example.net'],
      subject,
      body,
      error: '',
    });
    expect(row.messageId).toBe(m.messageId);
  });

  it("mails members by id: the site's members with an address, nobody else", async () => {
    await s.site.db.run("UPDATE members SET email = '' WHERE tenant = ? AND member_id = 8", [s.site.tenant]);
    expect(
      await s.render(
        `{sendmail var=ok to_member_id="2" cc_member_id="3" bcc_member_id="4,2" subject="x" contents="y"}${OK}`,
      ),
    ).toBe('sent');
    expect(last().rcptTo).toEqual(['hanako.sato@example.com', 'ichiro.suzuki@example.com', 'emily.clark@example.com']);
    const before = relay.received.length;
    expect(await s.failure('{sendmail to_member_id="8" subject="x" contents="y"}')).toBe('E_NOT_FOUND@1');
    expect(await s.failure('{sendmail to="a@example.org"\n cc_member_id="99" subject="x" contents="y"}')).toBe(
      'E_NOT_FOUND@1',
    );
    expect(relay.received.length).toBe(before);
  });

  it('renders mail/NAME.tpl with the further attributes as variables', async () => {
    expect(await s.render(`{sendmail var=ok to_member_id="2" mail_template="welcome" name="花子"}${OK}`)).toBe('sent');
    const m = await simpleParser(last().raw);
    expect(m.subject).toBe('ようこそ、花子さん / Welcome, 花子');
    expect(m.text?.trimEnd()).toBe(
      `花子さん\n\n${s.site.tenant} へのご登録ありがとうございます。\nThank you for joining ${s.site.tenant}.`,
    );
    expect(
      await s.render(`{sendmail var=ok to="a@example.org" mail_template="welcome" name="x" subject="Given wins"}${OK}`),
    ).toBe('sent');
    expect((await simpleParser(last().raw)).subject).toBe('Given wins');
  });

  it("refuses a missing template, one without a subject line, one that sends mail, and reports a template's error at the tag", async () => {
    const dir = s.site.dir;
    writeFileSync(path.join(dir, 'mail', 'nosubject.tpl'), 'Hello {$name}\n');
    writeFileSync(path.join(dir, 'mail', 'loop.tpl'), 'Subject: x\n{sendmail to="a@example.org" subject="again"}\n');
    writeFileSync(path.join(dir, 'mail', 'big.tpl'), `Subject: x\n${'x'.repeat(70_000)}`);
    writeFileSync(path.join(dir, 'mail', 'broken.tpl'), 'Subject: x\nline 2\n{$a/0}\n');
    const before = relay.received.length;
    expect(await s.failure('{sendmail to="a@example.org" mail_template="absent"}')).toBe('E_NOT_FOUND@1');
    expect(await s.failure('{sendmail to="a@example.org" mail_template=".hidden"}')).toBe('E_NOT_FOUND@1');
    expect(await s.failure('{sendmail to="a@example.org" mail_template="nosubject" name="x"}')).toBe(
      'E_BAD_ATTRIBUTE@1',
    );
    expect(await s.failure('{sendmail to="a@example.org" mail_template="loop"}')).toBe('E_HOST_CAPABILITY@1');
    expect(await s.failure('{sendmail to="a@example.org" mail_template="big"}')).toBe('E_SIZE_LIMIT@1');
    expect(await s.failure('\n{sendmail to="a@example.org" mail_template="broken" a=1}')).toBe('E_DIVISION_BY_ZERO@2');
    expect(relay.received.length).toBe(before);
  });

  it('a refused recipient is var=false and a failed outbox row that says why', async () => {
    const before = relay.received.length;
    expect(await s.render(`{sendmail var=ok to="bounce@example.org" subject="fails" contents="x"}${OK}`)).toBe(
      'not sent',
    );
    expect(relay.received.length).toBe(before);
    const [row] = await listOutbox(s.site, 1);
    expect(row).toMatchObject({ status: 'failed', subject: 'fails', to: ['bounce@example.org'] });
    expect(row.error).toMatch(/550/);
  });

  it('refuses a sender outside the verified domains before anything is kept', async () => {
    const [before] = await listOutbox(s.site, 1);
    expect(await s.failure('{sendmail to="a@example.org" from="ceo@bank.example" contents="x"}')).toBe(
      'E_IDENTITY_DENIED@1',
    );
    expect((await listOutbox(s.site, 1))[0].id).toBe(before.id);
  });
});

eachBackend('sendmail on a local site: relay settings, the window, no relay', (backend) => {
  let relay: MailRelay;
  beforeAll(async () => {
    relay = await startRelay();
  });
  afterAll(() => relay?.close());

  it('wrong credentials or a missing secret: var=false, failed rows with the reason', async () => {
    const wrong = relay.site();
    wrong.files = {
      ...wrong.files,
      'secrets.json': JSON.stringify({ SMTP_USER: { value: 'relay' }, SMTP_PASS: { value: 'nope' } }),
    };
    const a = await mailSite(backend, wrong);
    const missing = relay.site();
    missing.files = { ...missing.files, 'secrets.json': '{}' };
    const b = await mailSite(backend, missing);
    try {
      const before = relay.received.length;
      expect(await a.render(`{sendmail var=ok to="a@example.org" contents="x"}${OK}`)).toBe('not sent');
      expect((await listOutbox(a.site, 1))[0]).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/auth|credentials|535/i),
      });
      expect(await b.render(`{sendmail var=ok to="a@example.org" contents="x"}${OK}`)).toBe('not sent');
      expect((await listOutbox(b.site, 1))[0]).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/SMTP_USER and SMTP_PASS/),
      });
      expect(relay.received.length).toBe(before);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('keeps the hourly window in the outbox: it holds across openings of the site and counts failures', async () => {
    const s = await mailSite(
      backend,
      relay.site((mail) => Object.assign(mail, { max_per_hour: 3, max_recipients_per_hour: 4 })),
    );
    try {
      expect(
        await s.render(
          `{sendmail var=ok to="a@example.org" contents="1"}{sendmail var=ok to="bounce@example.org" contents="2"}${OK}`,
        ),
      ).toBe('sent');
      expect(await s.failure('{sendmail to="a@example.org,b@example.org,c@example.org" contents="3"}')).toBe(
        'E_RATE_LIMIT@1',
      );
      expect(await s.render(`{sendmail var=ok to="a@example.org" contents="3"}${OK}`)).toBe('sent');
      expect(await s.failure('{sendmail to="a@example.org" contents="4"}')).toBe('E_RATE_LIMIT@1');
      const rows = await listOutbox(s.site, 10);
      expect(rows.map((r) => r.body)).toEqual(['3', '2', '1']);
    } finally {
      await s.close();
    }
  });

  it('pools connections when mail.smtp.pool says so', async () => {
    const s = await mailSite(
      backend,
      relay.site((mail) => Object.assign(mail.smtp as object, { pool: 1 })),
    );
    try {
      const before = relay.received.length;
      expect(
        await s.render(
          `{section name=i loop=3}{sendmail var=ok to="a@example.org" contents=$smarty.section.i.index}{/section}${OK}`,
        ),
      ).toBe('sent');
      const got = relay.received.slice(before);
      expect(got).toHaveLength(3);
      expect(new Set(got.map((r) => r.session)).size).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('without mail.smtp: kept in the outbox as not_sent, var=true, nothing on the wire', async () => {
    const s = await mailSite(backend, {});
    try {
      const before = relay.received.length;
      expect(await s.render(`{sendmail var=ok to="a@example.org" subject="kept" contents="x"}${OK}`)).toBe('sent');
      expect((await listOutbox(s.site, 1))[0]).toMatchObject({
        status: 'not_sent',
        subject: 'kept',
        from: 'info@example.com',
        messageId: '',
      });
      expect(relay.received.length).toBe(before);
    } finally {
      await s.close();
    }
  });

  it('keeps each site to its own outbox and members', async () => {
    const a = await mailSite(backend, {});
    const b = await mailSite(backend, {});
    try {
      await b.site.db.run(
        "INSERT INTO members (tenant, member_id, email, inst_ymdhi, update_ymdhi) VALUES (?, 40, 'only.b@example.org', '2023-01-01 00:00:00', '2023-01-01 00:00:00')",
        [b.site.tenant],
      );
      expect(await a.failure('{sendmail to_member_id="40" contents="x"}')).toBe('E_NOT_FOUND@1');
      expect(await b.render(`{sendmail var=ok to_member_id="40" contents="b"}${OK}`)).toBe('sent');
      expect((await listOutbox(b.site, 5)).map((r) => r.to)).toEqual([['only.b@example.org']]);
      expect(await listOutbox(a.site, 5)).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('site.json mail is read strictly', () => {
  it.each([
    [{ smtp: { host: '127.0.0.1' } }, '/mail/smtp: "port" is required'],
    [{ smtp: { host: 'a b', port: 25 } }, '/mail/smtp/host: must be a host name or an IP address'],
    [
      { smtp: { host: 'smtp.example.com', port: 25, auth: { user: 'u', pass: 'p' } } },
      '/mail/smtp/auth: unknown key "user" (known: user_secret, pass_secret)',
    ],
    [
      { smtp: { host: 'smtp.example.com', port: 25, starttls: 'sometimes' } },
      '/mail/smtp/starttls: must be one of required, opportunistic, never',
    ],
    [
      { smtp: { host: 'smtp.example.com', port: 25, ca_file: '../ca.pem' } },
      '/mail/smtp/ca_file: must be a path inside the site folder',
    ],
    [{ smtp: { host: 'smtp.example.com', port: 25, passwd: 'x' } }, '/mail/smtp: unknown key "passwd"'],
    [{ max_per_hour: 0 }, '/mail/max_per_hour: must be at least 1'],
    [{ verified_domains: ['example.com'], typo: 1 }, '/mail: unknown key "typo"'],
  ])('refuses %j', async (mail, message) => {
    const { parseSiteConfig } = await import('../../../src/site/config.js');
    expect(() =>
      parseSiteConfig(
        { site_key: 'x', timezone: 'Asia/Tokyo', lang: 'ja', mail: { verified_domains: [], ...mail } },
        'site.json',
      ),
    ).toThrow(`site.json: ${message}`);
  });

  it('fills in the defaults', async () => {
    const { parseSiteConfig } = await import('../../../src/site/config.js');
    const c = parseSiteConfig(
      {
        site_key: 'x',
        timezone: 'Asia/Tokyo',
        lang: 'ja',
        mail: {
          verified_domains: ['example.com'],
          smtp: { host: 'smtp.example.com', port: 587, auth: { user_secret: 'U', pass_secret: 'P' } },
        },
      },
      'site.json',
    );
    expect(c.mail).toEqual({
      verified_domains: ['example.com'],
      smtp: {
        host: 'smtp.example.com',
        port: 587,
        secure: false,
        starttls: 'required',
        auth: { user_secret: 'U', pass_secret: 'P' },
      },
      max_per_hour: 200,
      max_recipients_per_hour: 2000,
    });
    expect(
      parseSiteConfig(
        {
          site_key: 'x',
          timezone: 'Asia/Tokyo',
          lang: 'ja',
          mail: { verified_domains: [], smtp: { host: 'h.example', port: 25 } },
        },
        'f',
      ).mail.smtp?.starttls,
    ).toBe('opportunistic');
  });
});

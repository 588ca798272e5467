/**
 * {sendmail} through the real engine (compile, isolate, bridge): the rules of docs/security.md
 * ML-01..ML-05, BR-06, BR-12, BR-13 and the spec's var semantics, against the in-memory outbox,
 * and end to end against a real SMTP server on 127.0.0.1.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine, type RenderOptions } from '../../../../src/index.js';
import { TemplateError } from '../../../../src/errors.js';
import type { HostAdapters } from '../../../../src/host-api/host.js';
import { SendWindow } from '../../../../src/host-adapters/mail/rate.js';
import { smtpMailAdapter } from '../../../../src/host-adapters/mail/smtp-adapter.js';
import { memoryMail, type MemoryMail } from '../../../support/host/mail.js';
import { startSmtp, headersOf, bodyOf, type TestSmtp } from '../../../support/smtp-server.js';

/** One engine (isolates are costly to start); each test sets the host's adapters it needs, per tenant. */
let adaptersOf: (tenant: string) => HostAdapters = () => ({});
const shared = createEngine({ host: ({ tenant }) => adaptersOf(tenant) });
afterAll(() => shared.close());

const secretsOf = (tenant: string): HostAdapters['secrets'] => ({
  async get(name) {
    return tenant === 'default' && name === 'TOKEN'
      ? { value: 'super-secret-value', hosts: ['api.example.com'] }
      : null;
  },
});

/** The shared engine with these adapters of each tenant (or these for every tenant), beside its secrets. */
function engineWith(adapters: HostAdapters | ((tenant: string) => HostAdapters)): Engine {
  adaptersOf = (tenant) => ({
    secrets: secretsOf(tenant),
    ...(typeof adapters === 'function' ? adapters(tenant) : adapters),
  });
  return shared;
}

let mem: MemoryMail;
let engine: Engine;
beforeEach(() => {
  mem = memoryMail({
    domains: { default: ['example.com'], b: ['b.example'], nodomain: [] },
    members: {
      default: { 1: 'member1@example.com', 2: 'Member2@Example.com', 3: 'bad address' },
      b: { 7: 'seven@b.example' },
    },
  });
  engine = engineWith((tenant) => ({ mail: mem.of(tenant) }));
});

async function run(
  e: Engine,
  template: string,
  opts: RenderOptions = {},
): Promise<{ output?: string; code?: string; message?: string }> {
  try {
    const r = await e.render(template, { name: 'mail.tpl', ...opts });
    return { output: r.output };
  } catch (err) {
    if (err instanceof TemplateError) return { code: err.code, message: err.message };
    throw err;
  }
}

const OK = '{if $ok}sent{else}not sent{/if}';

describe('sending', () => {
  it('sends one mail with canonical addresses and sets var=true', async () => {
    const r = await run(
      engine,
      `{sendmail var=ok to="a@Example.ORG, \\"b\\"@example.org" cc="c@example.org,a@example.org" bcc="d@example.org" from="Info@EXAMPLE.com" from_nm="Shop" subject="Hi" contents="Body"}${OK}`,
    );
    expect(r).toEqual({ output: 'sent' });
    expect(mem.outbox).toEqual([
      {
        tenant: 'default',
        mail: {
          to: ['a@example.org', 'b@example.org'],
          cc: ['c@example.org'],
          bcc: ['d@example.org'],
          from: 'Info@example.com',
          fromName: 'Shop',
          subject: 'Hi',
          body: 'Body',
          customArgs: {},
        },
      },
    ]);
  });

  it('sets var=false when delivery fails, without an error (spec "Errors")', async () => {
    const r = await run(
      engine,
      `{sendmail var=ok to="x@undeliverable.example" from="a@example.com" subject="s" contents="c"}${OK}`,
    );
    expect(r).toEqual({ output: 'not sent' });
    expect(mem.outbox).toEqual([]);
    expect(await run(engine, '{sendmail to="x@undeliverable.example"}done')).toEqual({ output: 'done' });
  });

  it('sets var=false when there is no recipient', async () => {
    expect(await run(engine, `{sendmail var=ok to=" , " subject="s"}${OK}`)).toEqual({ output: 'not sent' });
  });

  it('uses the host default sender when from is not given', async () => {
    await run(engine, '{sendmail to="x@example.org" contents="c"}');
    expect(mem.outbox[0].mail.from).toBe('noreply@example.com');
  });

  it('refuses without a mail adapter', async () => {
    const e = engineWith({});
    expect((await run(e, '{sendmail to="x@example.org"}')).code).toBe('E_HOST_CAPABILITY');
  });
});

describe('ML-01 header injection', () => {
  const BREAKS = ['\r\n', '\n', '\r', '\0', '\r\n\r\n', '\u000b', '\u000c', '\u001b', '\u007f', '\r\n '];
  const injected: [string, string][] = [];
  for (const br of BREAKS) {
    injected.push(['to', `a@example.org${br}Bcc: list@victim.example`]);
    injected.push(['subject', `hi${br}Bcc: x@y.example`]);
    injected.push(['from_nm', `Shop${br}Reply-To: evil@evil.example`]);
  }
  injected.push(['cc', 'c@example.org\r\nBcc: list@victim.example']);
  injected.push(['bcc', 'c@example.org\nX-Injected: 1']);
  injected.push(['from', 'a@example.com\r\nSender: ceo@bank.example']);
  injected.push(['to_member_id', '1\r\nBcc: list@victim.example']);
  injected.push(['cc_member_id', '1\n2']);
  injected.push(['bcc_member_id', '1\r2']);
  injected.push(['mail_template', 'welcome\r\nBcc: x@victim.example']);

  it('has a corpus of at least 20 forms', () => expect(injected.length).toBeGreaterThanOrEqual(20));

  for (const [attr, value] of injected) {
    it(`refuses ${attr}=${JSON.stringify(value)}`, async () => {
      const attrs: Record<string, string> = { to: 'a@example.org', from: 'a@example.com', subject: 's', [attr]: value };
      const tag = Object.keys(attrs)
        .map((k) => `${k}=$v.${k}`)
        .join(' ');
      const r = await run(engine, `{sendmail var=ok ${tag} contents="x"}${OK}`, { vars: { v: attrs } });
      expect(r.code).toBe('E_MAIL_REJECTED');
      expect(mem.outbox).toEqual([]);
    });
  }

  it('refuses the catalogue template literally (escapes in the template text)', async () => {
    const r = await run(
      engine,
      '{sendmail to="a@example.com\\r\\nBcc: list@victim.example" subject="hi\\r\\nBcc: x@y.example" contents="x"}',
    );
    expect(r.code).toBe('E_MAIL_REJECTED');
    expect(r.message).toMatch(/line break/);
  });

  it('refuses line breaks in sg_custom_args values, allows them in the body', async () => {
    expect(
      (await run(engine, '{sendmail to="a@example.org" sg_custom_args=$a}', { vars: { a: { k: 'v\r\nX: y' } } })).code,
    ).toBe('E_MAIL_REJECTED');
    expect((await run(engine, '{sendmail to="a@example.org" contents=$c}', { vars: { c: 'x\u0000y' } })).code).toBe(
      'E_MAIL_REJECTED',
    );
    expect(
      await run(engine, `{sendmail var=ok to="a@example.org" contents=$c}${OK}`, {
        vars: { c: 'line1\r\nBcc: not-a-header@x.example\r\n.\r\n' },
      }),
    ).toEqual({ output: 'sent' });
  });
});

describe('ML-02 / ML-03 address grammar and caps', () => {
  const BAD = [
    '"user"@allowed.example(x)evil.example',
    'Bob <bob@example.org>',
    'bob@example.org (Bob)',
    '-OQueueDirectory=/tmp -X/var/www/x',
    '-X/var/www/x@example.org',
    'user@localhost',
    'user@[127.0.0.1]',
    `a@example.org${'('.repeat(50_000)}`,
    'a@example.org; b@example.org',
    'üser@example.org',
  ];
  for (const to of BAD) {
    it(`refuses to=${JSON.stringify(to.slice(0, 50))}`, async () => {
      expect((await run(engine, '{sendmail to=$to}', { vars: { to } })).code).toBe('E_MAIL_REJECTED');
    });
  }

  it('caps the recipients of one call at 100, over to, cc, bcc and member ids', async () => {
    const list = (n: number, p = 'u') => Array.from({ length: n }, (_, i) => `${p}${i}@example.org`).join(',');
    expect((await run(engine, '{sendmail to=$to}', { vars: { to: list(10_000) } })).code).toBe('E_MAIL_REJECTED');
    expect(
      (await run(engine, '{sendmail to=$to cc=$cc bcc="z@example.org"}', { vars: { to: list(50), cc: list(50, 'c') } }))
        .code,
    ).toBe('E_MAIL_REJECTED');
    expect((await run(engine, '{sendmail to=$to to_member_id="1"}', { vars: { to: list(100) } })).code).toBe(
      'E_MAIL_REJECTED',
    );
    const ids = Array.from({ length: 50_000 }, (_, i) => i + 1).join(',');
    expect((await run(engine, '{sendmail to_member_id=$ids}', { vars: { ids } })).code).toBe('E_MAIL_REJECTED');
    expect(await run(engine, `{sendmail var=ok to=$to}${OK}`, { vars: { to: list(100) } })).toEqual({ output: 'sent' });
    expect(mem.outbox[0].mail.to).toHaveLength(100);
  });
});

describe('BR-12 sender identity', () => {
  it('allows from only in a verified domain of the tenant', async () => {
    for (const from of ['ceo@bank.example', 'x@sub.example.com', 'x@example.com.evil.example', 'x@b.example']) {
      expect(
        (await run(engine, '{sendmail to="a@example.org" from=$from from_nm="Bank"}', { vars: { from } })).code,
      ).toBe('E_IDENTITY_DENIED');
    }
    expect(
      (await run(engine, '{sendmail to="a@example.org" from="x@b.example"}', { identity: { tenant: 'b' } })).code,
    ).toBeUndefined();
    expect((await run(engine, '{sendmail to="a@example.org"}', { identity: { tenant: 'nodomain' } })).code).toBe(
      'E_IDENTITY_DENIED',
    );
    expect((await run(engine, '{sendmail to="a@example.org" from="not an address"}')).code).toBe('E_MAIL_REJECTED');
    expect(mem.outbox.map((o) => [o.tenant, o.mail.from])).toEqual([['b', 'x@b.example']]);
  });

  it('resolves member ids through the host, scoped to the tenant', async () => {
    expect(await run(engine, `{sendmail var=ok to_member_id="1, 2" cc_member_id="1" bcc_member_id=2}${OK}`)).toEqual({
      output: 'sent',
    });
    expect(mem.outbox[0].mail).toMatchObject({ to: ['member1@example.com', 'Member2@example.com'], cc: [], bcc: [] });
    expect((await run(engine, '{sendmail to_member_id="7"}')).code).toBe('E_NOT_FOUND');
    expect((await run(engine, '{sendmail to_member_id="7"}', { identity: { tenant: 'b' } })).code).toBeUndefined();
    expect((await run(engine, '{sendmail to_member_id="3"}')).code).toBe('E_NOT_FOUND');
    expect((await run(engine, '{sendmail to_member_id="1;2"}')).code).toBe('E_BAD_ATTRIBUTE');
    expect((await run(engine, '{sendmail to_member_id="-1"}')).code).toBe('E_BAD_ATTRIBUTE');
    const noMembers = engineWith({ mail: { verifiedDomains: async () => ['example.com'], send: async () => {} } });
    expect((await run(noMembers, '{sendmail to_member_id="1"}')).code).toBe('E_HOST_CAPABILITY');
  });
});

describe('BR-13 sg_custom_args', () => {
  it('takes at most 5 entries and no reserved key', async () => {
    const six = { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 };
    expect((await run(engine, '{sendmail to="a@example.org" sg_custom_args=$a}', { vars: { a: six } })).code).toBe(
      'E_BAD_ATTRIBUTE',
    );
    for (const key of ['site_id', 'region', 'magazine_id', 'magazine_send_mail_list_id', 'SITE_ID']) {
      expect(
        (await run(engine, '{sendmail to="a@example.org" sg_custom_args=$a}', { vars: { a: { [key]: 1 } } })).code,
      ).toBe('E_BAD_ATTRIBUTE');
    }
    expect((await run(engine, '{sendmail to="a@example.org" sg_custom_args=$a}', { vars: { a: ['x'] } })).code).toBe(
      'E_BAD_ATTRIBUTE',
    );
    expect(
      (await run(engine, '{sendmail to="a@example.org" sg_custom_args=$a}', { vars: { a: { k: { deep: 1 } } } })).code,
    ).toBe('E_BAD_ATTRIBUTE');
    expect((await run(engine, '{sendmail to="a@example.org" sg_custom_args="x"}')).code).toBe('E_BAD_ATTRIBUTE');
    const five = { a: 'x', b: 2, c: true, d: '', e: 'y' };
    expect(
      (await run(engine, '{sendmail to="a@example.org" sg_custom_args=$a}', { vars: { a: five } })).code,
    ).toBeUndefined();
    expect(mem.outbox[0].mail.customArgs).toEqual({ a: 'x', b: '2', c: '1', d: '', e: 'y' });
  });
});

describe('ML-05 rate limits', () => {
  it('allows 20 mails per render (its row budget, E_BUDGET), and the outbox holds exactly those', async () => {
    const r = await run(
      engine,
      '{section name=i loop=100000}{sendmail to="a@example.org" subject=$smarty.section.i.index}{/section}',
    );
    expect(r.code).toBe('E_BUDGET');
    expect(mem.outbox.map((o) => o.mail.subject)).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
  });

  it('caps recipients per render at 200', async () => {
    const to = Array.from({ length: 100 }, (_, i) => `u${i}@example.org`).join(',');
    const r = await run(engine, '{sendmail to=$to}{sendmail to=$to}{sendmail to="x@example.org"}', { vars: { to } });
    expect(r.code).toBe('E_RATE_LIMIT');
    expect(mem.outbox).toHaveLength(2);
  });

  it('the host keeps a per-tenant window across renders', async () => {
    const m = memoryMail({
      domains: { default: ['example.com'], other: ['example.com'] },
      window: new SendWindow({ messages: 30 }),
    });
    const e = engineWith((tenant) => ({ mail: m.of(tenant) }));
    const t = '{section name=i loop=20}{sendmail to="a@example.org"}{/section}ok';
    expect(await run(e, t)).toEqual({ output: 'ok' });
    expect((await run(e, t)).code).toBe('E_RATE_LIMIT');
    expect(await run(e, t, { identity: { tenant: 'other' } })).toEqual({ output: 'ok' });
    expect(m.outbox.filter((o) => o.tenant === 'default')).toHaveLength(30);
  });
});

describe('sizes, secrets and templates', () => {
  it('caps subject, sender name and body', async () => {
    expect(
      (await run(engine, '{sendmail to="a@example.org" subject=$s}', { vars: { s: 'x'.repeat(1001) } })).code,
    ).toBe('E_SIZE_LIMIT');
    expect((await run(engine, '{sendmail to="a@example.org" from_nm=$s}', { vars: { s: 'x'.repeat(201) } })).code).toBe(
      'E_SIZE_LIMIT',
    );
    expect(
      (await run(engine, '{sendmail to="a@example.org" contents=$s}', { vars: { s: 'あ'.repeat(180_000) } })).code,
    ).toBe('E_SIZE_LIMIT');
    expect(
      await run(engine, `{sendmail var=ok to="a@example.org" subject=$s}${OK}`, { vars: { s: 'x'.repeat(1000) } }),
    ).toEqual({ output: 'sent' });
  });

  it('refuses to mail a secret (BR-06)', async () => {
    for (const t of [
      '{secret var=s key="TOKEN"}{sendmail to="a@example.org" contents=$s}',
      '{secret var=s key="TOKEN"}{sendmail to="a@example.org" subject="k=`$s`"}',
      '{secret var=s key="TOKEN"}{sendmail to="a@example.org" mail_template="welcome" name=$s}',
      '{secret var=s key="TOKEN"}{assign var=a.k value=$s}{sendmail to="a@example.org" sg_custom_args=$a}',
    ]) {
      const r = await run(engine, t);
      expect(r.code, t).toBe('E_SECRET_DENIED');
      expect(r.message).not.toContain('super-secret-value');
    }
    expect(mem.outbox.filter((o) => JSON.stringify(o).includes('secret'))).toEqual([]);
  });

  it('renders a stored message template with the extra attributes', async () => {
    expect(await run(engine, `{sendmail var=ok to="a@example.org" mail_template="welcome" name="花子"}${OK}`)).toEqual({
      output: 'sent',
    });
    expect(
      await run(engine, `{sendmail var=ok to="a@example.org" mail_template="welcome" subject="Own" name="x"}${OK}`),
    ).toEqual({ output: 'sent' });
    expect(mem.outbox.map((o) => [o.mail.subject, o.mail.body])).toEqual([
      ['Welcome', 'Hello 花子'],
      ['Own', 'Hello x'],
    ]);
    expect((await run(engine, '{sendmail to="a@example.org" mail_template="missing"}')).code).toBe('E_NOT_FOUND');
    expect((await run(engine, '{sendmail to="a@example.org" mail_template="../x"}')).code).toBe('E_BAD_ATTRIBUTE');
    const evil = memoryMail({ templates: { t: () => ({ subject: 'x\r\nBcc: a@victim.example', body: '' }) } });
    expect(
      (await run(engineWith({ mail: evil.adapter }), '{sendmail to="a@example.org" mail_template="t"}')).code,
    ).toBe('E_MAIL_REJECTED');
    const none = engineWith({ mail: { verifiedDomains: async () => ['example.com'], send: async () => {} } });
    expect((await run(none, '{sendmail to="a@example.org" mail_template="welcome"}')).code).toBe('E_HOST_CAPABILITY');
    const many = Array.from({ length: 33 }, (_, i) => `v${i}=1`).join(' ');
    expect((await run(engine, `{sendmail to="a@example.org" mail_template="welcome" ${many}}`)).code).toBe(
      'E_BAD_ATTRIBUTE',
    );
  });
});

describe('end to end over SMTP', () => {
  let smtp: TestSmtp;
  let e: Engine;
  let adapter: ReturnType<typeof smtpMailAdapter>;
  beforeAll(async () => {
    smtp = await startSmtp();
    adapter = smtpMailAdapter({
      host: '127.0.0.1',
      port: smtp.port,
      heloName: 'mx.host.example',
      verifiedDomains: { default: ['example.com'] },
    });
  });
  beforeEach(() => {
    e = engineWith((tenant) => ({ mail: adapter.forTenant(tenant) }));
  });
  afterAll(() => smtp.close());

  it('delivers a Japanese mail with exact headers, envelope and body', async () => {
    const r = await run(
      e,
      `{sendmail var=ok to="taro@example.org" bcc="audit@example.org" from="shop@example.com" from_nm="ショップ" subject="ご注文確認" contents=$body}${OK}`,
      {
        vars: { body: 'ありがとうございました。\n.\n' },
      },
    );
    expect(r).toEqual({ output: 'sent' });
    const got = smtp.received[0];
    expect(got.helo).toBe('mx.host.example');
    expect(got.mailFrom).toBe('shop@example.com');
    expect(got.rcptTo).toEqual(['taro@example.org', 'audit@example.org']);
    const h = headersOf(got.raw);
    expect(h.map(([n]) => n)).toEqual([
      'Date',
      'From',
      'To',
      'Subject',
      'Message-ID',
      'MIME-Version',
      'Content-Type',
      'Content-Transfer-Encoding',
    ]);
    const get = (n: string) => h.find(([k]) => k === n)![1];
    expect(get('Subject')).toBe(`=?UTF-8?B?${Buffer.from('ご注文確認').toString('base64')}?=`);
    expect(get('From')).toBe(`=?UTF-8?B?${Buffer.from('ショップ').toString('base64')}?= <shop@example.com>`);
    expect(get('To')).toBe('taro@example.org');
    expect(Buffer.from(bodyOf(got.raw), 'base64').toString('utf8')).toBe('ありがとうございました。\r\n.\r\n');
  });

  it('an injection attempt reaches the SMTP server not at all', async () => {
    const before = smtp.received.length;
    const r = await run(
      e,
      '{sendmail to="a@example.com\\r\\nBcc: list@victim.example" subject="hi\\r\\nBcc: x@y.example" contents="x"}',
    );
    expect(r.code).toBe('E_MAIL_REJECTED');
    expect(smtp.received.length).toBe(before);
  });

  it('a refused delivery is var=false', async () => {
    const picky = await startSmtp({
      onRcptTo: (_a, _s, cb) => cb(Object.assign(new Error('no'), { responseCode: 550 })),
    });
    try {
      const e2 = engineWith({
        mail: smtpMailAdapter({
          host: '127.0.0.1',
          port: picky.port,
          verifiedDomains: { default: ['example.com'] },
        }).forTenant('default'),
      });
      expect(await run(e2, `{sendmail var=ok to="a@example.org" from="x@example.com"}${OK}`)).toEqual({
        output: 'not sent',
      });
    } finally {
      await picky.close();
    }
  });
});

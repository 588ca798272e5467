/**
 * Catalogue cases of category ML (docs/security.md ML), run against the harness host's real
 * SMTP path (src/security/host/mail.ts): every case checks the refusal AND what reached the
 * SMTP sink, whose traps (mail to victim.example / evil.example / y.example, injected header
 * fields) count as canary touches.
 *
 * ML-06 (chat and social posting in a loop) is in ml-posting.ts: it needs the http harness.
 *
 * BR_MAIL holds the mail rules of category BR (BR-12 sender identity, BR-13 reserved provider
 * arguments) for br.ts to include.
 */
import type { HarnessContext, Outcome, RenderAttempt, SecurityCase } from '../types.js';
import type { RenderOptions } from '../../engine.js';
import { judge } from './helpers.js';
import { harnessMail, headerFields, HARNESS_HELO, HARNESS_WINDOW, type MailHarnessState } from '../host/mail.js';

type Attempt = [template: string, opts?: RenderOptions];

const NO_WIRE: Outcome = {
  status: 'escaped',
  detail: 'the harness mail host is not in use: what reached SMTP cannot be checked',
};

/** Each attempt must end with one of `codes`, and the SMTP sink must receive nothing. */
async function refusedOffWire(
  h: HarnessContext,
  st: MailHarnessState,
  attempts: Attempt[],
  codes: string[],
): Promise<Outcome> {
  const before = st.messages.length;
  const sessions = st.sessions.length;
  for (const [t, opts] of attempts) {
    const a = await h.render(t, opts);
    const o = judge(h, a, a.code !== undefined && codes.includes(a.code), `refused with ${codes.join(' or ')}`);
    if (o.status !== 'contained') return { ...o, detail: `${JSON.stringify(t.slice(0, 70))}: ${o.detail}` };
  }
  if (st.messages.length !== before || st.sessions.length !== sessions)
    return { status: 'escaped', detail: 'a refused mail reached the SMTP server' };
  return {
    status: 'contained',
    detail: `${attempts.length} forms refused with ${codes.join(' or ')}; nothing reached SMTP`,
  };
}

function mailCase(
  id: string,
  title: string,
  run: (h: HarnessContext, st: MailHarnessState) => Promise<Outcome>,
  category: 'ML' | 'BR' = 'ML',
): SecurityCase {
  return {
    id,
    category,
    title,
    async run(h) {
      const st = harnessMail();
      return st ? run(h, st) : NO_WIRE;
    },
  };
}

const SENT = '{if $ok}sent{else}not sent{/if}';

/** Renders a mail that must be sent; returns the attempt and the sink messages it produced. */
async function sendOne(
  h: HarnessContext,
  st: MailHarnessState,
  template: string,
  opts?: RenderOptions,
): Promise<{ a: RenderAttempt; ok: boolean }> {
  const before = st.messages.length;
  const a = await h.render(template, opts);
  return { a, ok: a.output === 'sent' && st.messages.length === before + 1 };
}

export const ML: SecurityCase[] = [
  mailCase('ML-01', 'header injection: CR/LF/NUL in any header-bound value', async (h, st) => {
    const breaks = ['\r\n', '\n', '\r', '\0', '\r\n\r\n'];
    const attempts: Attempt[] = [
      ['{sendmail to="a@example.com\\r\\nBcc: list@victim.example" subject="hi\\r\\nBcc: x@y.example" contents="x"}'],
    ];
    for (const br of breaks) {
      for (const attr of ['to', 'cc', 'bcc', 'subject', 'from', 'from_nm', 'to_member_id']) {
        const v: Record<string, string> = { to: 'a@example.com', from: 'info@example.com', subject: 's' };
        v[attr] = `${attr === 'to_member_id' ? '1' : (v[attr] ?? 'a@example.com')}${br}Bcc: list@victim.example`;
        attempts.push([
          `{sendmail ${Object.keys(v)
            .map((k) => `${k}=$v.${k}`)
            .join(' ')} contents="x"}`,
          { vars: { v } },
        ]);
      }
    }
    const refused = await refusedOffWire(h, st, attempts, ['E_MAIL_REJECTED']);
    if (refused.status !== 'contained') return refused;
    // Control: header-looking text in the body stays body text over real SMTP.
    const { a, ok } = await sendOne(
      h,
      st,
      `{sendmail var=ok to="reader@example.org" from="info@example.com" subject="hi" contents=$b}${SENT}`,
      {
        vars: { b: 'x\r\nBcc: list@victim.example\r\n\r\nSubject: second\r\n.\r\n' },
      },
    );
    const m = st.messages[st.messages.length - 1];
    const fields = m ? headerFields(m.data) : [];
    const clean =
      ok &&
      m.rcptTo.join() === 'reader@example.org' &&
      !fields.includes('bcc') &&
      fields.filter((f) => f === 'subject').length === 1;
    return judge(
      h,
      a,
      clean,
      `${attempts.length} injections refused before SMTP; body text with header lines delivered as body only`,
    );
  }),

  mailCase(
    'ML-02',
    'address confusion: comments after quotes, 10 000 recipients, 100 KB of comment nesting',
    async (h, st) => {
      const many = Array.from({ length: 10_000 }, (_, i) => `u${i}@example.org`).join(',');
      const attempts: Attempt[] = [
        ['{sendmail to="\\"user\\"@allowed.example(x)evil.example" contents="x"}'],
        ['{sendmail to=$to}', { vars: { to: '"user"@allowed.example(x)evil.example' } }],
        ['{sendmail to=$to}', { vars: { to: 'user@allowed.example(x)evil.example' } }],
        ['{sendmail to=$to}', { vars: { to: 'Allowed <user@allowed.example> evil@evil.example' } }],
        ['{sendmail to=$to}', { vars: { to: 'user@evil.example@allowed.example' } }],
        ['{sendmail to=$to}', { vars: { to: many } }],
        ['{sendmail to="a@example.org" cc=$to}', { vars: { to: many } }],
        ['{sendmail to=$to}', { vars: { to: `a@example.org${'('.repeat(51_200)}${')'.repeat(51_200)}` } }],
        ['{sendmail to=$to}', { vars: { to: `${'('.repeat(51_200)}a@evil.example` } }],
        ['{sendmail to=$to}', { vars: { to: `${'a'.repeat(300)}@example.org` } }],
      ];
      const t0 = performance.now();
      const o = await refusedOffWire(h, st, attempts, ['E_MAIL_REJECTED']);
      return { ...o, figures: { ms: performance.now() - t0 } };
    },
  ),

  mailCase('ML-03', 'transport flags in addresses', async (h, st) =>
    refusedOffWire(
      h,
      st,
      [
        ['{sendmail to="-OQueueDirectory=/tmp -X/var/www/x" contents="x"}'],
        ['{sendmail to="-X/var/www/x@example.org" contents="x"}'],
        ['{sendmail to="a@example.org" from="-fevil@example.com"}'],
        ['{sendmail to="\\"-X/var/www/x\\"@example.org"}'],
        ['{sendmail to="a@example.org" cc="-OQueueDirectory=/tmp"}'],
      ],
      ['E_MAIL_REJECTED'],
    ),
  ),

  mailCase(
    'ML-04',
    'SMTP command injection: no template value reaches the EHLO name or an ESMTP parameter',
    async (h, st) => {
      const refused = await refusedOffWire(
        h,
        st,
        [
          ['{sendmail to="a@example.org" from="info@example.com> SIZE=99999999"}'],
          ['{sendmail to="a@example.org> NOTIFY=NEVER ORCPT=rfc822;x@victim.example"}'],
          ['{sendmail to="a@example.org" from=$f}', { vars: { f: 'info@example.com>\r\nRCPT TO:<x@victim.example' } }],
          ['{sendmail to="<a@example.org>"}'],
        ],
        ['E_MAIL_REJECTED'],
      );
      if (refused.status !== 'contained') return refused;
      const { a, ok } = await sendOne(
        h,
        st,
        `{sendmail var=ok to="Reader@Example.ORG" from="Info@Example.COM" helo="evil.example" ehlo="evil.example" name="evil" envelope="x" size="1" contents="x"}${SENT}`,
      );
      const transcript = st.sessions[st.sessions.length - 1] ?? [];
      const expected = [`EHLO ${HARNESS_HELO}`, 'MAIL FROM:<Info@example.com>', 'RCPT TO:<Reader@example.org>', 'DATA'];
      // The transport may say QUIT after the render has its answer (nodemailer does): a closing QUIT is all that may follow DATA.
      const after = transcript.slice(expected.length);
      const exact =
        JSON.stringify(transcript.slice(0, expected.length)) === JSON.stringify(expected) &&
        after.every((l) => l === 'QUIT') &&
        after.length <= 1;
      return judge(
        h,
        a,
        ok && exact,
        exact
          ? 'envelope values rejected; the session used the host EHLO name and canonical addresses only'
          : `session was ${JSON.stringify(transcript).slice(0, 200)}`,
      );
    },
  ),

  mailCase(
    'ML-05',
    'spam cannon: per-render and per-tenant limits, the outbox records what was sent',
    async (h, st) => {
      const count = (tenant: string) => st.outbox.filter((o) => o.tenant === tenant).length;
      const cannon =
        '{section name=i loop=100000}{sendmail to="list@example.org" subject=$smarty.section.i.index contents="buy"}{/section}';
      const a = await h.render(cannon, { identity: { tenant: 'ml05-render' } });
      const perRender = judge(
        h,
        a,
        a.code === 'E_BUDGET' && count('ml05-render') === 20,
        'E_BUDGET (the mails row budget) after 20 mails in one render',
      );
      if (perRender.status !== 'contained')
        return { ...perRender, detail: `${perRender.detail}; outbox holds ${count('ml05-render')}` };
      // Per tenant: renders of 20 mails each until the host's hourly window refuses.
      const batch = '{section name=i loop=20}{sendmail to="list@example.org" contents="buy"}{/section}ok';
      const sinkBefore = st.messages.length;
      let last: RenderAttempt | undefined;
      for (let i = 0; i < Math.ceil(HARNESS_WINDOW / 20) + 2; i++) {
        last = await h.render(batch, { identity: { tenant: 'ml05-tenant' } });
        if (last.code) break;
      }
      const sent = count('ml05-tenant');
      const onWire = st.messages.length - sinkBefore;
      return judge(
        h,
        last!,
        last!.code === 'E_RATE_LIMIT' && sent === HARNESS_WINDOW && onWire === HARNESS_WINDOW,
        `per-render cap 20 and per-tenant window ${HARNESS_WINDOW}/hour held; outbox and SMTP both saw ${sent}`,
      );
    },
  ),
  mailCase(
    'ML-07',
    'Unicode line breaks, encoded words, header-named extra attributes, template names',
    async (h, st) => {
      const identity = { tenant: 'ml07' };
      const to = 'to="reader@example.org" from="info@example.com" contents="c"';
      const inject = (br: string) => `a${br}Bcc: list@victim.example`;
      // VT and FF are controls: refused like CR and LF (ML-01).
      const refused = await refusedOffWire(
        h,
        st,
        [
          ...['\u000b', '\u000c'].flatMap((br) =>
            ['subject', 'from_nm'].map((attr): Attempt => [
              `{sendmail ${to} ${attr}=$s}`,
              { identity, vars: { s: inject(br) } },
            ]),
          ),
          [`{sendmail ${to} sg_custom_args=$a}`, { identity, vars: { a: { k: inject('\r\n') } } }],
        ],
        ['E_MAIL_REJECTED'],
      );
      if (refused.status !== 'contained') return refused;
      const badNames = await refusedOffWire(
        h,
        st,
        [
          [`{sendmail ${to} mail_template=$t}`, { identity, vars: { t: '../../etc/passwd' } }],
          [`{sendmail ${to} sg_custom_args=$a}`, { identity, vars: { a: { 'x\r\nBcc': 'list@victim.example' } } }],
          [`{sendmail ${to} __proto__="x"}`, { identity }],
        ],
        ['E_BAD_ATTRIBUTE', 'E_BAD_ATTR'],
      );
      if (badNames.status !== 'contained') return badNames;
      // Sent as text: the Unicode line breaks (U+2028, U+2029, NEL) in the subject and the display
      // name, an encoded word holding CR/LF, extra attributes named Bcc and Cc (template variables).
      // Each message has one recipient and a header section in plain ASCII (non-ASCII text goes
      // out as encoded words, never raw); the sink's traps (a header field the builder does not
      // write, mail to victim.example) would count as a canary touch.
      const sent: [string, Record<string, string>][] = [
        ...['\u2028', '\u2029', '\u0085'].flatMap((br) =>
          ['subject', 'from_nm'].map((attr): [string, Record<string, string>] => [
            `{sendmail var=ok ${to} ${attr}=$s}${SENT}`,
            { s: inject(br) },
          ]),
        ),
        [`{sendmail var=ok ${to} subject="=?utf-8?q?a=0D=0ABcc:_list@victim.example?="}${SENT}`, {}],
        [`{sendmail var=ok ${to} Bcc="list@victim.example" Cc="list@victim.example"}${SENT}`, {}],
      ];
      for (const [t, vars] of sent) {
        const { a, ok } = await sendOne(h, st, t, { identity, vars });
        const m = st.messages[st.messages.length - 1];
        const head = m?.data.slice(0, m.data.indexOf('\r\n\r\n')) ?? '';
        const o = judge(
          h,
          a,
          ok && m?.rcptTo.join() === 'reader@example.org' && /^[\x20-\x7e\r\n\t]*$/.test(head),
          'sent to its one recipient, the header section in ASCII',
        );
        if (o.status !== 'contained') return { ...o, detail: `${JSON.stringify(vars)} ${t.slice(0, 60)}: ${o.detail}` };
      }
      return {
        status: 'contained',
        detail: `8 forms refused off the wire; ${sent.length} sent as text, each to its one recipient, no header added`,
      };
    },
  ),
];

/** Mail rules of category BR (docs/security.md BR), for br.ts. */
export const BR_MAIL: SecurityCase[] = [
  mailCase(
    'BR-12',
    'sender identity: from in verified domains only; member recipients via the host; recipient cap',
    async (h, st) => {
      const ids = Array.from({ length: 50_000 }, (_, i) => i + 1).join(',');
      const refusals: [Attempt[], string[]][] = [
        [
          [
            ['{sendmail to=$x from="ceo@bank.example" from_nm="Bank"}', { vars: { x: 'a@example.org' } }],
            ['{sendmail to="a@example.org" from="x@example.com.bank.example"}'],
            ['{sendmail to="a@example.org" from="x@mail.example.com"}'],
          ],
          ['E_IDENTITY_DENIED'],
        ],
        [[['{sendmail to_member_id=$ids}', { vars: { ids } }]], ['E_MAIL_REJECTED']],
        [
          [['{sendmail to_member_id="3"}'], ['{sendmail to_member_id="1"}', { identity: { tenant: 'other' } }]],
          ['E_NOT_FOUND'],
        ],
      ];
      for (const [attempts, codes] of refusals) {
        const o = await refusedOffWire(h, st, attempts, codes);
        if (o.status !== 'contained') return o;
      }
      const { a, ok } = await sendOne(h, st, `{sendmail var=ok to_member_id="1,2" from="info@allowed.example"}${SENT}`);
      const m = st.messages[st.messages.length - 1];
      return judge(
        h,
        a,
        ok && m.rcptTo.join() === 'member1@example.com,member2@example.com' && m.mailFrom === 'info@allowed.example',
        'foreign senders, 50 000 member ids and unknown members refused; own members mailed',
      );
    },
    'BR',
  ),
  mailCase(
    'BR-13',
    'reserved provider arguments',
    async (h, st) =>
      refusedOffWire(
        h,
        st,
        [
          ['{sendmail to="a@example.org" sg_custom_args=$a}', { vars: { a: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 } } }],
          ['{sendmail to="a@example.org" sg_custom_args=$a}', { vars: { a: { site_id: 'other-site' } } }],
          ['{sendmail to="a@example.org" sg_custom_args=$a}', { vars: { a: { region: 'us' } } }],
          ['{sendmail to="a@example.org" sg_custom_args=$a}', { vars: { a: { magazine_id: 1 } } }],
          ['{sendmail to="a@example.org" sg_custom_args=$a}', { vars: { a: { magazine_send_mail_list_id: 1 } } }],
          ['{sendmail to="a@example.org" sg_custom_args=$a}', { vars: { a: { Site_Id: 1 } } }],
        ],
        ['E_BAD_ATTRIBUTE'],
      ),
    'BR',
  ),
];

/**
 * {sendmail}: checks everything a template can put into a mail, then hands one OutgoingMail to
 * the host's mail adapter (docs/security.md ML-01..ML-05, BR-12, BR-13; spec "Errors": var is
 * true on success and false when delivery fails, while refusals of forbidden mails are errors).
 *
 * Order: header injection (E_MAIL_REJECTED), sizes (E_SIZE_LIMIT), secret handles
 * (E_SECRET_DENIED), address grammar and recipient cap (E_MAIL_REJECTED), provider arguments
 * (E_BAD_ATTRIBUTE), the per-render cap (E_RATE_LIMIT), the sender's domain
 * (E_IDENTITY_DENIED), member and template look-ups, then the adapter (whose policy refusals,
 * such as the per-tenant hourly window, are BridgeErrors and end the render too).
 */
import { implement, type BridgeCall } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import type { MailAdapter, OutgoingMail } from '../../host-api/host.js';
import { PhpArray, PhpObject, toJS, type Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { domainOf, parseAddress, parseAddressList } from '../../host-adapters/mail/address.js';
import { headerSafe } from '../../host-adapters/mail/message.js';
import { missingAdapter } from '../../host-api/capabilities.js';
import declaration from '../../plugins/host-mail/sendmail.js';
import { ROW_BUDGETS } from '../../plugins/budgets.js';

/** Caps (documented in the declaration's summary). */
const MAIL_LIMITS = {
  recipientsPerCall: 100,
  mailsPerRender: ROW_BUDGETS.mails.perRender,
  recipientsPerRender: 200,
  subjectChars: 1000,
  fromNameChars: 200,
  bodyBytes: 512 * 1024,
  customArgs: 5,
  customArgKeyChars: 64,
  customArgValueChars: 256,
  templateVars: 32,
} as const;

const RESERVED_ARGS = new Set(['site_id', 'region', 'magazine_id', 'magazine_send_mail_list_id']);
const ARG_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const TEMPLATE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const MEMBER_ID = /^[1-9][0-9]{0,14}$/;
const DECLARED = new Set([
  'var',
  'to',
  'to_member_id',
  'cc',
  'cc_member_id',
  'bcc',
  'bcc_member_id',
  'subject',
  'contents',
  'from',
  'from_nm',
  'mail_template',
  'sg_custom_args',
]);
const HEADER_BOUND = [
  'to',
  'to_member_id',
  'cc',
  'cc_member_id',
  'bcc',
  'bcc_member_id',
  'subject',
  'from',
  'from_nm',
  'mail_template',
] as const;

/** Mails and recipients sent in each render (the BridgeCall object lives exactly one render). */
const perRender = new WeakMap<BridgeCall, { mails: number; recipients: number }>();

const rejected = (message: string): never => {
  throw new BridgeError('E_MAIL_REJECTED', `{sendmail} ${message}`);
};

function str(v: Value): string {
  return v === undefined || v === null ? '' : String(v);
}

/** Strings reachable in a value (for the secret-handle scan), bounded. */
function strings(v: Value, out: string[], depth = 0): void {
  if (depth > 16 || out.length > 10_000) return;
  if (typeof v === 'string') out.push(v);
  else if (v instanceof PhpArray || v instanceof PhpObject) {
    for (const [k, x] of v instanceof PhpArray ? v.entries() : v.props) {
      out.push(String(k));
      strings(x, out, depth + 1);
    }
  }
}

function checkHeaderValue(name: string, value: string): void {
  if (!headerSafe(value)) rejected(`${name}= holds a line break or control character`);
}

function memberIds(name: string, text: string): number[] {
  const ids: number[] = [];
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    if (!MEMBER_ID.test(item))
      throw new BridgeError('E_BAD_ATTRIBUTE', `{sendmail} ${name}= must be comma-separated member ids`);
    ids.push(Number(item));
    if (ids.length > MAIL_LIMITS.recipientsPerCall)
      rejected(`has more than ${MAIL_LIMITS.recipientsPerCall} recipients`);
  }
  return ids;
}

function customArgs(v: Value): Record<string, string> {
  const bad = (why: string): never => {
    throw new BridgeError('E_BAD_ATTRIBUTE', `{sendmail} sg_custom_args ${why}`);
  };
  const out: Record<string, string> = Object.create(null);
  if (!(v instanceof PhpArray)) return out;
  if (v.size > MAIL_LIMITS.customArgs) bad(`may have at most ${MAIL_LIMITS.customArgs} entries`);
  for (const [k, x] of v.entries()) {
    const key = String(k);
    if (typeof k === 'number' || !ARG_KEY.test(key) || key.length > MAIL_LIMITS.customArgKeyChars)
      bad('keys must be names (an associative array)');
    if (RESERVED_ARGS.has(key.toLowerCase())) bad(`may not use the reserved key ${key}`);
    if (x instanceof PhpArray || x instanceof PhpObject) bad('values must be strings or numbers');
    const value = toStr(x);
    if (value.length > MAIL_LIMITS.customArgValueChars)
      bad(`values are limited to ${MAIL_LIMITS.customArgValueChars} characters`);
    if (!headerSafe(value)) rejected('sg_custom_args holds a line break or control character');
    out[key] = value;
  }
  return out;
}

function addresses(name: string, text: string): string[] {
  const r = parseAddressList(text, MAIL_LIMITS.recipientsPerCall);
  if (!r.ok) rejected(`${name}=: ${r.reason}`);
  return (r as { addresses: string[] }).addresses;
}

async function sender(
  mail: MailAdapter,
  tenant: string,
  fromAttr: string,
  fromName: string,
  domains: readonly string[],
): Promise<{ address: string; name: string }> {
  const verified = new Set(domains.map((d) => d.toLowerCase()));
  let address: string;
  let name = fromName;
  if (fromAttr.trim() !== '') {
    const r = parseAddress(fromAttr);
    if (!r.ok) rejected(`from=: ${r.reason}`);
    address = (r as { address: string }).address;
  } else {
    const d = mail.defaultSender ? await mail.defaultSender() : null;
    if (d) {
      const r = parseAddress(d.address);
      if (!r.ok) throw new BridgeError('E_IDENTITY_DENIED', '{sendmail} the site has no valid default sender');
      address = (r as { address: string }).address;
      if (name === '' && d.name) name = d.name;
    } else {
      const first = domains[0];
      if (!first) throw new BridgeError('E_IDENTITY_DENIED', '{sendmail} the site has no verified sender domain');
      address = `noreply@${first.toLowerCase()}`;
    }
    checkHeaderValue('from_nm', name);
  }
  if (!verified.has(domainOf(address)))
    throw new BridgeError(
      'E_IDENTITY_DENIED',
      `{sendmail} from= must be an address in one of the site's verified domains (${domainOf(address).slice(0, 64)} is not)`,
    );
  return { address, name };
}

export const sendmail = implement(declaration, async (attrs, call, mail) => {
  const tenant = call.identity.tenant;

  // ML-01: nothing header-bound may carry a line break or a control character.
  for (const name of HEADER_BOUND) checkHeaderValue(name, str(attrs[name]));
  const contents = str(attrs.contents);
  if (contents.includes('\0')) rejected('contents= holds a NUL character');

  // Sizes.
  let subject = str(attrs.subject);
  const fromName = str(attrs.from_nm);
  if (subject.length > MAIL_LIMITS.subjectChars)
    throw new BridgeError('E_SIZE_LIMIT', `{sendmail} subject= is longer than ${MAIL_LIMITS.subjectChars} characters`);
  if (fromName.length > MAIL_LIMITS.fromNameChars)
    throw new BridgeError('E_SIZE_LIMIT', `{sendmail} from_nm= is longer than ${MAIL_LIMITS.fromNameChars} characters`);
  if (Buffer.byteLength(contents, 'utf8') > MAIL_LIMITS.bodyBytes)
    throw new BridgeError('E_SIZE_LIMIT', `{sendmail} contents= is larger than ${MAIL_LIMITS.bodyBytes} bytes`);

  // BR-06: a secret handle may not leave in a mail (no rule allows mail as a secret's destination).
  const scanned: string[] = [];
  for (const v of Object.values(attrs)) strings(v, scanned);
  if (scanned.some((s) => call.secrets.contains(s)))
    throw new BridgeError('E_SECRET_DENIED', '{sendmail} a secret may not be sent by mail');

  // ML-02, ML-03, BR-12: strict grammar, canonical form, one cap over all recipients.
  const to = addresses('to', str(attrs.to));
  const cc = addresses('cc', str(attrs.cc));
  const bcc = addresses('bcc', str(attrs.bcc));
  const ids = {
    to: memberIds('to_member_id', str(attrs.to_member_id)),
    cc: memberIds('cc_member_id', str(attrs.cc_member_id)),
    bcc: memberIds('bcc_member_id', str(attrs.bcc_member_id)),
  };
  const asked = to.length + cc.length + bcc.length + ids.to.length + ids.cc.length + ids.bcc.length;
  if (asked > MAIL_LIMITS.recipientsPerCall) rejected(`has more than ${MAIL_LIMITS.recipientsPerCall} recipients`);

  // BR-13.
  const args = customArgs(attrs.sg_custom_args);

  // Template variables: the further attributes.
  const vars: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attrs)) if (!DECLARED.has(k)) vars[k] = toJS(v);
  if (Object.keys(vars).length > MAIL_LIMITS.templateVars)
    throw new BridgeError('E_BAD_ATTRIBUTE', `{sendmail} takes at most ${MAIL_LIMITS.templateVars} template variables`);

  // ML-05: per-render cap, counted before anything is looked up or sent.
  let counter = perRender.get(call);
  if (!counter) perRender.set(call, (counter = { mails: 0, recipients: 0 }));
  if (counter.recipients + asked > MAIL_LIMITS.recipientsPerRender)
    throw new BridgeError(
      'E_RATE_LIMIT',
      `{sendmail} at most ${MAIL_LIMITS.recipientsPerRender} recipients per render`,
    );
  counter.mails++;
  counter.recipients += asked;

  // BR-12: the sender is the site's.
  const domains = await mail.verifiedDomains();
  const from = await sender(mail, tenant, str(attrs.from), fromName, domains);

  // Members: only those the host says this render may mail.
  const allIds = [...ids.to, ...ids.cc, ...ids.bcc];
  let byId: ReadonlyMap<number, string> = new Map();
  if (allIds.length) {
    if (!mail.memberAddresses) throw missingAdapter('{sendmail} with member recipients', 'mail.memberAddresses');
    byId = await mail.memberAddresses(call.identity, [...new Set(allIds)]);
  }
  const resolve = (list: number[]): string[] =>
    list.map((id) => {
      const found = byId.get(id);
      const r = found === undefined ? null : parseAddress(found);
      if (!r || !r.ok) throw new BridgeError('E_NOT_FOUND', `{sendmail} no member ${id} to mail`);
      return r.address;
    });

  // mail_template: rendered by the host; its output goes through the same checks.
  let body = contents;
  const templateName = str(attrs.mail_template);
  if (templateName !== '') {
    if (!TEMPLATE_NAME.test(templateName))
      throw new BridgeError('E_BAD_ATTRIBUTE', '{sendmail} mail_template= is not a template identifier');
    if (!mail.renderTemplate) throw missingAdapter('{sendmail} with mail_template', 'mail.renderTemplate');
    const rendered = await mail.renderTemplate(templateName, vars);
    if (!rendered) throw new BridgeError('E_NOT_FOUND', `{sendmail} no message template ${templateName}`);
    if (subject === '') subject = rendered.subject;
    if (body === '') body = rendered.body;
    if (!headerSafe(subject)) rejected("the template's subject holds a line break or control character");
    if (body.includes('\0')) rejected("the template's body holds a NUL character");
    if (subject.length > MAIL_LIMITS.subjectChars || Buffer.byteLength(body, 'utf8') > MAIL_LIMITS.bodyBytes)
      throw new BridgeError('E_SIZE_LIMIT', '{sendmail} the rendered template is too large');
    if (call.secrets.contains(subject) || call.secrets.contains(body))
      throw new BridgeError('E_SECRET_DENIED', '{sendmail} a secret may not be sent by mail');
  }

  // One recipient once: the first place it appears wins (to, then cc, then bcc).
  const seen = new Set<string>();
  const unique = (list: string[]) => list.filter((a) => (seen.has(a) ? false : (seen.add(a), true)));
  const outgoing: OutgoingMail = {
    to: unique([...to, ...resolve(ids.to)]),
    cc: unique([...cc, ...resolve(ids.cc)]),
    bcc: unique([...bcc, ...resolve(ids.bcc)]),
    from: from.address,
    fromName: from.name,
    subject,
    body,
    customArgs: { ...args },
  };
  const varName = attrs.var === undefined || attrs.var === null ? null : String(attrs.var);
  const result = (ok: boolean, log?: string) => ({
    assign: varName ? ([[varName, ok]] as [string, Value][]) : [],
    log: log ? [{ level: 'warning' as const, message: log }] : undefined,
  });
  if (outgoing.to.length + outgoing.cc.length + outgoing.bcc.length === 0)
    return result(false, '{sendmail} no recipients: nothing sent');

  try {
    await mail.send(outgoing);
  } catch (e) {
    if (e instanceof BridgeError) throw e; // the host's policy refused it
    return result(false, '{sendmail} delivery failed');
  }
  return result(true);
});

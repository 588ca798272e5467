/**
 * The harness host's mail adapter: the real default adapter (smtpMailAdapter: message builder,
 * nodemailer SMTP transport, per-tenant window) delivering to an SMTP sink on 127.0.0.1 that records every
 * command line and every message (`harnessMail()`), so the ML cases can check what actually
 * went over the wire.
 *
 * Traps: a message to a trap domain (victim.example, evil.example, y.example: where the
 * catalogue's injections aim), or a message whose header section holds a field the builder
 * never writes (an injected Bcc, Reply-To, Sender...), calls CanaryState.touch, which the
 * harness counts as an escape of whatever case was running.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { HostAdapters, OutgoingMail } from '../../host-api/host.js';
import { smtpMailAdapter } from '../../host-adapters/mail/smtp-adapter.js';
import { SendWindow } from '../../host-adapters/mail/rate.js';
import type { CanaryState } from './state.js';

/** The EHLO name the harness host configures. */
export const HARNESS_HELO = 'mailer.harness.invalid';
const TRAP_DOMAINS = ['victim.example', 'evil.example', 'y.example'];
/** Mails per tenant per hour in the harness host's window. */
export const HARNESS_WINDOW = 60;
/** The header fields the message builder writes; anything else in a received message was injected. */
const BUILDER_FIELDS = new Set([
  'date',
  'from',
  'to',
  'cc',
  'subject',
  'message-id',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'x-custom-args',
]);

interface SinkMessage {
  helo: string;
  mailFrom: string;
  rcptTo: string[];
  /** The message as received (dot-stuffing removed), CRLF line ends. */
  data: string;
}

export interface MailHarnessState {
  /** Every command line the sink received, per session, in order. */
  sessions: string[][];
  messages: SinkMessage[];
  /** What the adapter handed to SMTP successfully, with the tenant. */
  outbox: { tenant: string; mail: OutgoingMail }[];
  window: SendWindow;
}

let current: MailHarnessState | undefined;

/** The running harness's mail state (only with the harness's own host). */
export function harnessMail(): MailHarnessState | undefined {
  return current;
}

/** Header field names of a message, unfolded. */
export function headerFields(data: string): string[] {
  const end = data.indexOf('\r\n\r\n');
  const head = end < 0 ? data : data.slice(0, end);
  return head
    .replace(/\r\n(?=[ \t])/g, '')
    .split('\r\n')
    .map((l) => l.slice(0, Math.max(0, l.indexOf(':'))).toLowerCase());
}

/**
 * An SMTP client's lines as a test server reads them: each command line goes to `onCommand`; after
 * one it answers 'data', the lines up to the lone `.` (dot-unstuffed) go to `onMessage` as one
 * message. A client that sends 64 MiB without a line break is cut off.
 */
export function smtpLines(
  sock: Socket,
  onCommand: (line: string) => 'data' | void,
  onMessage: (lines: string[]) => void,
): void {
  let buffer = '';
  let data: string[] | null = null;
  sock.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('latin1');
    if (buffer.length > 64 * 1024 * 1024) return sock.destroy();
    let nl: number;
    while ((nl = buffer.indexOf('\r\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 2);
      if (data === null) {
        if (onCommand(line) === 'data') data = [];
      } else if (line === '.') {
        const lines = data;
        data = null;
        onMessage(lines);
      } else data.push(line.startsWith('.') ? line.slice(1) : line);
    }
  });
}

function startSink(state: MailHarnessState, c: CanaryState): Promise<Server> {
  const check = (m: SinkMessage) => {
    const trapped = m.rcptTo.filter((a) => TRAP_DOMAINS.some((d) => a.toLowerCase().endsWith(`@${d}`)));
    if (trapped.length) c.touch(`mail sent to a trap address: ${trapped.join(', ')}`);
    const injected = headerFields(m.data).filter((f) => !BUILDER_FIELDS.has(f));
    if (injected.length) c.touch(`mail with injected header fields: ${injected.join(', ')}`);
  };
  const onConnection = (sock: Socket) => {
    sock.unref();
    sock.on('error', () => {});
    const transcript: string[] = [];
    state.sessions.push(transcript);
    let env = { helo: '', mailFrom: '', rcptTo: [] as string[] };
    const reply = (line: string) => sock.write(`${line}\r\n`);
    const onMessage = (lines: string[]) => {
      const m: SinkMessage = { ...env, rcptTo: [...env.rcptTo], data: lines.length ? `${lines.join('\r\n')}\r\n` : '' };
      state.messages.push(m);
      check(m);
      env = { helo: env.helo, mailFrom: '', rcptTo: [] };
      reply('250 queued');
    };
    smtpLines(
      sock,
      (line) => {
        transcript.push(line);
        const verb = line.slice(0, line.indexOf(' ') < 0 ? line.length : line.indexOf(' ')).toUpperCase();
        const arg = line.slice(verb.length + 1);
        if (verb === 'EHLO' || verb === 'HELO') {
          env.helo = arg;
          reply('250 sink');
        } else if (line.toUpperCase().startsWith('MAIL FROM:')) {
          env.mailFrom = line.slice(10).replace(/^<|>$/g, '');
          reply('250 ok');
        } else if (line.toUpperCase().startsWith('RCPT TO:')) {
          env.rcptTo.push(line.slice(8).replace(/^<|>$/g, ''));
          reply('250 ok');
        } else if (verb === 'DATA') {
          reply('354 go ahead');
          return 'data';
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 ok');
        else if (verb === 'QUIT') {
          reply('221 bye');
          sock.end();
        } else reply('502 not implemented');
      },
      onMessage,
    );
    reply('220 harness sink ESMTP');
  };
  return new Promise((resolve, reject) => {
    const server = createServer(onConnection);
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.unref();
      resolve(server);
    });
  });
}

export async function mailAdapter(c: CanaryState): Promise<(tenant: string) => Partial<HostAdapters>> {
  const state: MailHarnessState = {
    sessions: [],
    messages: [],
    outbox: [],
    window: new SendWindow({ messages: HARNESS_WINDOW, recipients: 10 * HARNESS_WINDOW }),
  };
  current = state;
  const sink = await startSink(state, c);
  const smtp = smtpMailAdapter({
    host: '127.0.0.1',
    port: (sink.address() as AddressInfo).port,
    heloName: HARNESS_HELO,
    verifiedDomains: () => ['example.com', 'allowed.example'],
    window: state.window,
    commandTimeoutMs: 5000,
  });
  // Member 1 and 2 of "default" have addresses; no other tenant's member has one.
  const addresses: Record<string, Record<number, string>> = {
    default: { 1: 'member1@example.com', 2: 'member2@example.com' },
  };
  return (tenant) => {
    const mail = smtp.forTenant(tenant, {
      memberAddresses: async (_asker, ids) => {
        const table = addresses[tenant] ?? {};
        return new Map(
          ids.filter((id) => Object.prototype.hasOwnProperty.call(table, id)).map((id) => [id, table[id]]),
        );
      },
    });
    return {
      mail: {
        ...mail,
        async send(outgoing) {
          await mail.send(outgoing);
          state.outbox.push({ tenant, mail: structuredClone(outgoing) });
        },
      },
    };
  };
}

/**
 * A minimal SMTP client (RFC 5321) over node:net / node:tls for the default mail adapter.
 *
 * One message per connection: greeting 220, EHLO (HELO when EHLO is refused) with the host
 * name the HOST configured, optional STARTTLS and AUTH PLAIN, MAIL FROM, one RCPT TO per
 * recipient, DATA with every line end made CRLF and dot-stuffing, QUIT. Every reply code is
 * checked; replies are size-capped; every step has a timeout. Nothing a template writes
 * reaches a command except the canonical addresses (re-parsed here: a value that is not a
 * canonical address is refused before it is written), so neither the EHLO name nor any
 * ESMTP parameter is template-controlled (docs/security.md ML-04).
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { parseAddress } from './address.js';

export interface SmtpOptions {
  host: string;
  port: number;
  /** The EHLO name: a host name or address literal fixed by the host (default "localhost"). */
  heloName?: string;
  /** none: plain (a local relay); starttls: upgrade, and fail when the server does not offer it; tls: implicit TLS. */
  security?: 'none' | 'starttls' | 'tls';
  /** TLS options (ca, servername, rejectUnauthorized...). */
  tls?: ConnectionOptions;
  /** AUTH PLAIN credentials; sent only over TLS unless allowPlainAuth. */
  auth?: { user: string; pass: string };
  allowPlainAuth?: boolean;
  /** Connect, per-command and end-of-data timeouts (ms). */
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
  dataTimeoutMs?: number;
  /** The whole session, from connect to QUIT (ms; default 120 000). */
  sessionTimeoutMs?: number;
}

export interface SmtpEnvelope {
  from: string;
  to: readonly string[];
}

export interface SmtpResult {
  /** The server's answer to the end of DATA (for the host's log; never shown to templates). */
  response: string;
}

/** A failed session: the step, and the server's reply code when it answered. */
export class SmtpError extends Error {
  constructor(
    message: string,
    readonly stage: string,
    readonly replyCode: number | null,
  ) {
    super(message);
  }
}

const MAX_REPLY_LINE = 4096;
const MAX_REPLY_LINES = 64;
const HELO_NAME = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]{2,45}\])$/;

interface Reply {
  code: number;
  lines: string[];
}

/** Reads SMTP replies from a socket: CRLF (or LF) separated lines, multi-line replies joined. */
class ReplyReader {
  private buffer = '';
  private lines: string[] = [];
  private waiter: { resolve: (r: Reply) => void; reject: (e: Error) => void; timer: NodeJS.Timeout; stage: string } | null = null;
  private failure: Error | null = null;
  private pending: string[][] = [];

  constructor(private socket: Socket | TLSSocket) {
    this.attach(socket);
  }

  private readonly onData = (chunk: Buffer) => {
    this.buffer += chunk.toString('latin1');
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      this.lines.push(line);
      if (this.lines.length > MAX_REPLY_LINES) return this.fail(new SmtpError('the server sent an over-long reply', 'reply', null));
      if (line.length > MAX_REPLY_LINE) return this.fail(new SmtpError('the server sent an over-long reply line', 'reply', null));
      if (!/^\d{3}(?:[ -]|$)/.test(line)) return this.fail(new SmtpError('the server sent a malformed reply', 'reply', null));
      if (line.charAt(3) !== '-') {
        this.pending.push(this.lines);
        this.lines = [];
        this.deliver();
      }
    }
    if (this.buffer.length > MAX_REPLY_LINE) this.fail(new SmtpError('the server sent an over-long reply line', 'reply', null));
  };

  private readonly onError = (e: Error) => this.fail(new SmtpError(`connection error: ${(e as NodeJS.ErrnoException).code ?? 'failed'}`, 'connection', null));
  private readonly onClose = () => this.fail(new SmtpError('the server closed the connection', 'connection', null));

  attach(socket: Socket | TLSSocket): void {
    this.socket = socket;
    socket.on('data', this.onData);
    socket.on('error', this.onError);
    socket.on('close', this.onClose);
  }

  detach(): void {
    this.socket.off('data', this.onData);
    this.socket.off('close', this.onClose);
    // keep an error listener: an error event without one would crash the process
    this.socket.off('error', this.onError);
    this.socket.on('error', () => {});
  }

  private fail(e: Error): void {
    if (!this.failure) this.failure = e;
    this.socket.destroy();
    this.deliver();
  }

  private deliver(): void {
    const w = this.waiter;
    if (!w) return;
    if (this.pending.length) {
      this.waiter = null;
      clearTimeout(w.timer);
      const lines = this.pending.shift()!;
      w.resolve({ code: Number(lines[lines.length - 1].slice(0, 3)), lines: lines.map((l) => l.slice(4)) });
    } else if (this.failure) {
      this.waiter = null;
      clearTimeout(w.timer);
      w.reject(this.failure instanceof SmtpError ? new SmtpError(this.failure.message, w.stage, null) : this.failure);
    }
  }

  read(stage: string, timeoutMs: number): Promise<Reply> {
    return new Promise((resolve, reject) => {
      if (this.waiter) throw new Error('one reply at a time');
      const timer = setTimeout(() => {
        this.waiter = null;
        this.fail(new SmtpError(`no reply within ${timeoutMs} ms`, stage, null));
        reject(new SmtpError(`no reply within ${timeoutMs} ms`, stage, null));
      }, timeoutMs);
      this.waiter = { resolve, reject, timer, stage };
      this.deliver();
    });
  }

  /** Unread replies (a server that answers before it was asked is broken or hostile). */
  get unread(): number {
    return this.pending.length;
  }

  /** Ends the session: the pending and every later read fail with `message`. */
  abort(message: string): void {
    this.fail(new SmtpError(message, 'session', null));
  }

  /** Nothing received that was not read yet (checked before the TLS upgrade). */
  get idle(): boolean {
    return this.pending.length === 0 && this.lines.length === 0 && this.buffer === '';
  }
}

/** SNI: the relay's host name (an IP address is not a server name, RFC 6066). */
function serverName(opts: SmtpOptions): { servername?: string } {
  return isIP(opts.host) ? {} : { servername: opts.host };
}

function connectSocket(opts: SmtpOptions, timeoutMs: number): Promise<Socket | TLSSocket> {
  return new Promise((resolve, reject) => {
    const implicit = opts.security === 'tls';
    const socket = implicit
      ? tlsConnect({ host: opts.host, port: opts.port, ...serverName(opts), ...opts.tls })
      : netConnect({ host: opts.host, port: opts.port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new SmtpError(`no connection within ${timeoutMs} ms`, 'connect', null));
    }, timeoutMs);
    socket.once(implicit ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      socket.off('error', onError);
      socket.on('error', () => {}); // the reply reader reports errors (as a closed connection)
      resolve(socket);
    });
    const onError = (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new SmtpError(`connection failed: ${e.code ?? 'error'}`, 'connect', null));
    };
    socket.once('error', onError);
  });
}

/** Every line end as CRLF, a line starting with "." doubled, and the final CRLF "." CRLF. */
export function dotStuff(message: string): string {
  const normalized = message.replace(/\r\n|\r|\n/g, '\r\n');
  const stuffed = normalized.replace(/^\./gm, '..');
  return `${stuffed}${stuffed.endsWith('\r\n') || stuffed === '' ? '' : '\r\n'}.\r\n`;
}

function checkEnvelopeAddress(a: string, what: string): string {
  const r = parseAddress(a);
  if (!r.ok || r.address !== a) throw new SmtpError(`the ${what} address is not a canonical address`, 'envelope', null);
  return a;
}

/** Sends one message. Rejects with SmtpError on any failure; nothing is retried. */
export async function sendSmtp(opts: SmtpOptions, envelope: SmtpEnvelope, message: string): Promise<SmtpResult> {
  const helo = opts.heloName ?? 'localhost';
  if (!HELO_NAME.test(helo)) throw new SmtpError('the EHLO name is not a host name', 'ehlo', null);
  const from = checkEnvelopeAddress(envelope.from, 'sender');
  if (envelope.to.length === 0) throw new SmtpError('no recipients', 'envelope', null);
  const to = envelope.to.map((a) => checkEnvelopeAddress(a, 'recipient'));
   
  if (/[^\x00-\x7f]/.test(message)) throw new SmtpError('the message is not 7-bit', 'data', null);

  const commandMs = opts.commandTimeoutMs ?? 30_000;
  const sessionMs = opts.sessionTimeoutMs ?? 120_000;
  let socket = await connectSocket(opts, Math.min(opts.connectTimeoutMs ?? 10_000, sessionMs));
  const reader = new ReplyReader(socket);
  const session = setTimeout(() => reader.abort(`the session took longer than ${sessionMs} ms`), sessionMs);
  let tls = opts.security === 'tls';

  const expect = async (stage: string, ok: (code: number) => boolean, timeoutMs = commandMs): Promise<Reply> => {
    const r = await reader.read(stage, timeoutMs);
    if (!ok(r.code)) throw new SmtpError(`the server answered ${r.code} to ${stage}`, stage, r.code);
    return r;
  };
  const command = async (line: string, stage: string, ok: (code: number) => boolean, timeoutMs = commandMs): Promise<Reply> => {
    if (reader.unread) throw new SmtpError('the server sent a reply nobody asked for', stage, null);
    socket.write(`${line}\r\n`, 'latin1');
    return expect(stage, ok, timeoutMs);
  };
  const is = (...codes: number[]) => (c: number) => codes.includes(c);

  try {
    await expect('greeting', is(220));
    const hello = async (): Promise<Set<string>> => {
      try {
        const r = await command(`EHLO ${helo}`, 'EHLO', is(250));
        return new Set(r.lines.slice(1).map((l) => l.split(' ')[0].toUpperCase()));
      } catch (e) {
        if (!(e instanceof SmtpError) || e.replyCode === null || e.replyCode < 500) throw e;
        await command(`HELO ${helo}`, 'HELO', is(250));
        return new Set();
      }
    };
    let extensions = await hello();
    if (opts.security === 'starttls') {
      if (!extensions.has('STARTTLS')) throw new SmtpError('the server does not offer STARTTLS', 'STARTTLS', null);
      await command('STARTTLS', 'STARTTLS', is(220));
      // plain-text bytes sent before the handshake must not be read as encrypted replies
      if (!reader.idle) throw new SmtpError('the server sent data before the TLS handshake', 'STARTTLS', null);
      reader.detach();
      socket = await new Promise<TLSSocket>((resolve, reject) => {
        const s = tlsConnect({ socket, ...serverName(opts), ...opts.tls });
        const timer = setTimeout(() => {
          s.destroy();
          reject(new SmtpError('TLS handshake timed out', 'STARTTLS', null));
        }, commandMs);
        s.once('secureConnect', () => {
          clearTimeout(timer);
          resolve(s);
        });
        s.once('error', (e: NodeJS.ErrnoException) => {
          clearTimeout(timer);
          reject(new SmtpError(`TLS failed: ${e.code ?? 'error'}`, 'STARTTLS', null));
        });
      });
      reader.attach(socket);
      tls = true;
      extensions = await hello();
    }
    if (opts.auth) {
      if (!tls && !opts.allowPlainAuth) throw new SmtpError('refusing to send credentials without TLS', 'AUTH', null);
      const token = Buffer.from(`\0${opts.auth.user}\0${opts.auth.pass}`, 'utf8').toString('base64');
      await command(`AUTH PLAIN ${token}`, 'AUTH', is(235));
    }
    await command(`MAIL FROM:<${from}>`, 'MAIL FROM', is(250));
    for (const rcpt of to) await command(`RCPT TO:<${rcpt}>`, 'RCPT TO', is(250, 251));
    await command('DATA', 'DATA', is(354));
    if (reader.unread) throw new SmtpError('the server sent a reply nobody asked for', 'DATA', null);
    socket.write(dotStuff(message), 'latin1');
    const done = await expect('end of data', is(250), opts.dataTimeoutMs ?? 60_000);
    try {
      await command('QUIT', 'QUIT', is(221), Math.min(commandMs, 5_000));
    } catch {
      // the message is accepted; a server that hangs up before answering QUIT changes nothing
    }
    return { response: done.lines.join(' ').slice(0, 200) };
  } finally {
    clearTimeout(session);
    reader.detach();
    socket.end();
    socket.destroy();
  }
}

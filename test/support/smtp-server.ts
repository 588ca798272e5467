/** A real SMTP server (npm smtp-server) on 127.0.0.1 that records what it receives. */
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

interface Received {
  helo: string;
  mailFrom: string;
  rcptTo: string[];
  raw: Buffer;
  secure: boolean;
  /** The server's id of the connection (the same for mails sent over one pooled connection). */
  session: string;
  /** The user the client logged in as, if it did. */
  user: string | null;
}

export interface TestSmtp {
  port: number;
  received: Received[];
  close(): Promise<void>;
}

export async function startSmtp(opts: Partial<SMTPServerOptions> = {}): Promise<TestSmtp> {
  const received: Received[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          helo: String(session.hostNameAppearsAs),
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
          secure: session.secure,
          session: session.id,
          user: typeof session.user === 'string' ? session.user : null,
        });
        callback(null);
      });
    },
    ...opts,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const addr = server.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Header lines of a raw message (unfolded), in order, as [name, value]. */
export function headersOf(raw: Buffer): [string, string][] {
  const text = raw.toString('latin1');
  const head = text.slice(0, text.indexOf('\r\n\r\n'));
  const unfolded = head.replace(/\r\n(?=[ \t])/g, '');
  return unfolded.split('\r\n').map((l) => {
    const i = l.indexOf(':');
    return [l.slice(0, i), l.slice(i + 1).trim()];
  });
}

export function bodyOf(raw: Buffer): string {
  const text = raw.toString('latin1');
  return text.slice(text.indexOf('\r\n\r\n') + 4);
}

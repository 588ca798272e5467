/**
 * The log of `smartcage serve` (docs/observability.md): pino, one JSON object per line, on
 * stderr; stdout keeps only the start lines with the address, so a script that reads the address
 * is not fed log lines. On a terminal (or with `--log-format pretty`) the lines go through
 * pino-pretty instead.
 *
 * What a line never holds: a secret value, a cookie, an Authorization or access-token header, a
 * query or body value. The access log (access-log.ts) writes named fields only and never a
 * header or the query; `redact` below is the second line of defence, for a field that a later
 * change might add by mistake.
 */
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

export type LogFormat = 'json' | 'pretty';
export const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Paths pino censors wherever a line would carry them (request and response objects, error causes). */
const REDACT_PATHS: readonly string[] = [
  'headers.authorization',
  'headers.cookie',
  'headers["proxy-authorization"]',
  'headers["x-rcms-api-access-token"]',
  'headers["set-cookie"]',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["proxy-authorization"]',
  '*.headers["x-rcms-api-access-token"]',
  '*.headers["set-cookie"]',
  'query',
  '*.query',
  'body',
  '*.body',
  'password',
  '*.password',
  'secret',
  '*.secret',
  'token',
  '*.token',
  'value',
  '*.value',
];

/** Every field name those paths go through (`headers`, `cookie`...): a line with none of them has nothing to redact. */
export const REDACTED_FIELDS: ReadonlySet<string> = new Set(
  REDACT_PATHS.flatMap((p) => p.split(/[.[\]"*]+/).filter(Boolean)),
);

export interface ServerLogOptions {
  level?: LogLevel;
  /** Default: `pretty` when the stream is a terminal, else `json`. */
  format?: LogFormat;
  /** Where lines go (default: stderr, file descriptor 2). */
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
}

export function createServerLogger(opts: ServerLogOptions = {}): Logger {
  const stream = opts.stream ?? process.stderr;
  const format = opts.format ?? (stream.isTTY ? 'pretty' : 'json');
  const options: pino.LoggerOptions = {
    level: opts.level ?? 'info',
    base: { pid: process.pid },
    redact: { paths: [...REDACT_PATHS], censor: '[redacted]' },
    // The names operators grep for: `level` as a word, `time` as ISO 8601.
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (format === 'pretty')
    return pino(options, pretty({ destination: stream, colorize: Boolean(stream.isTTY), sync: true, ignore: 'pid' }));
  // stderr itself: pino writes each line whole; process.stderr on a pipe is asynchronous in Node.
  return pino(options, opts.stream ?? pino.destination({ fd: 2, sync: false }));
}

/** An error's message as one line, cut to `max` characters: a log line holds no stack for a template error. */
export function oneLine(message: string, max = 300): string {
  const line = message.replace(/\s*\n\s*/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}...` : line;
}

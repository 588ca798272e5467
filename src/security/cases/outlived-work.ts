/**
 * The second attacks round's cases on host work that outlives its render (docs/security.md CPU-12,
 * CPU-13), beside CPU-11: a mail to a slow relay when the wall clock ends the render, and the
 * engine closed while its renders wait on the host. The render's AbortSignal (D152) must reach
 * the work, and nothing may be sent or made for a render that already reported its error.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createEngine } from '../../engine.js';
import { smtpMailAdapter } from '../../host-adapters/mail/smtp-adapter.js';
import type { HostAdapters } from '../../host-api/host.js';
import { currentRenderSignal } from '../../host-api/render-signal.js';
import { withAdapters } from '../../host-api/resolve.js';
import { harnessHttp } from '../host/http.js';
import { smtpLines } from '../host/mail.js';
import type { HarnessContext, Outcome, SecurityCase } from '../types.js';
import { judge, within } from './helpers.js';

/** A relay that greets `greetMs` after the connection: it counts connections open and messages taken. */
async function slowRelay(greetMs: number): Promise<{ server: Server; open: () => number; messages: () => number }> {
  let open = 0;
  let messages = 0;
  const onConnection = (sock: Socket) => {
    open++;
    sock.on('close', () => open--);
    sock.on('error', () => {});
    const reply = (line: string) => !sock.destroyed && sock.write(`${line}\r\n`);
    smtpLines(
      sock,
      (line) => {
        const verb = line.split(' ')[0].toUpperCase();
        if (verb === 'DATA') {
          reply('354 go ahead');
          return 'data';
        }
        if (verb === 'QUIT') {
          reply('221 bye');
          sock.end();
        } else reply(verb === 'EHLO' || verb === 'HELO' ? '250 slow relay' : '250 ok');
      },
      () => {
        messages++;
        reply('250 queued');
      },
    );
    setTimeout(() => reply('220 slow relay ESMTP'), greetMs).unref();
  };
  const server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  return { server, open: () => open, messages: () => messages };
}

/** How long host work may go on after its render ended before the case calls it an escape. */
const GRACE_MS = 3000;

/** {sendmail} to a relay slower than the render's wall clock: no mail goes after the render failed. */
async function mailAtTheWall(h: HarnessContext): Promise<Outcome> {
  const relay = await slowRelay(1500);
  const smtp = smtpMailAdapter({
    host: '127.0.0.1',
    port: (relay.server.address() as AddressInfo).port,
    heloName: 'mailer.harness.invalid',
    verifiedDomains: () => ['example.com'],
    window: false,
  });
  const e = createEngine({
    host: withAdapters(h.host, { mail: smtp.forTenant('default') }),
    limits: { wallMs: 500, cpuMs: 1000 },
    timezone: 'Asia/Tokyo',
  });
  try {
    await e.render('{$x}', { vars: { x: 1 } }).catch(() => undefined);
    const a = await h.render('{sendmail to="reader@example.org" from="info@example.com" subject="s" contents="c"}', {
      engine: e,
    });
    if (a.code !== 'E_WALL_TIMEOUT') return judge(h, a, false, 'the render ends E_WALL_TIMEOUT');
    const ended = performance.now();
    const closed = await within(GRACE_MS, () => relay.open() === 0);
    // Past the relay's greeting: a send that went on would have delivered by now.
    await new Promise((r) => setTimeout(r, 1700));
    if (relay.messages() > 0)
      return {
        status: 'escaped',
        detail: 'the relay took the mail after its render had ended E_WALL_TIMEOUT',
      };
    if (!closed)
      return { status: 'escaped', detail: `the relay connection was still open ${GRACE_MS} ms after the render ended` };
    return {
      status: 'contained',
      detail: 'E_WALL_TIMEOUT before the relay greeted: the connection closed with the render, no mail sent',
      figures: { closedAfterMs: Math.round(performance.now() - ended) },
    };
  } finally {
    await e.close();
    smtp.close();
    relay.server.close();
  }
}

/** An adapter call that never answers: it records whether its render's signal aborted and why. */
function neverAnswering() {
  const seen = { started: 0, aborted: 0, reasons: new Set<string>() };
  const secrets: HostAdapters['secrets'] = {
    get(): Promise<{ value: string }> {
      seen.started++;
      const signal = currentRenderSignal();
      return new Promise((_resolve, reject) => {
        signal?.addEventListener(
          'abort',
          () => {
            seen.aborted++;
            seen.reasons.add(String((signal.reason as { code?: string } | undefined)?.code));
            reject(signal.reason as Error);
          },
          { once: true },
        );
      });
    },
  };
  return { seen, secrets };
}

/** close() while renders wait on an adapter and on a dripping HTTP answer: both are told to stop. */
async function closedEngine(h: HarnessContext): Promise<Outcome> {
  const { seen, secrets } = neverAnswering();
  const s = harnessHttp();
  const before = s.openDrips();
  const e = createEngine({
    host: withAdapters(h.host, { secrets }),
    limits: { wallMs: 20_000, cpuMs: 1000 },
    timezone: 'Asia/Tokyo',
  });
  await e.render('{$x}', { vars: { x: 1 } }).catch(() => undefined);
  const pending = [
    h.render('{secret var=s key="K"}{$s}', { engine: e }),
    h.render('{api endpoint=$u timeout=30 status_var=s}{$s}', {
      engine: e,
      identity: { tenant: 'other' },
      vars: { u: `http://api.example.com:${s.port}/drip` },
    }),
  ];
  const started = await within(GRACE_MS, () => seen.started === 1 && s.openDrips() > before);
  await e.close();
  const t0 = performance.now();
  const [a, b] = await Promise.all(pending);
  const ms = performance.now() - t0;
  if (!started) return { status: 'escaped', detail: 'the two host calls never started (the case did not attack)' };
  for (const r of [a, b])
    if (r.output !== undefined) return judge(h, r, false, 'each render fails when its engine closes');
  if (!(await within(GRACE_MS, () => seen.aborted === 1)))
    return { status: 'escaped', detail: "the pending adapter call's signal never aborted after close()" };
  if (!(await within(GRACE_MS, () => s.openDrips() === before)))
    return { status: 'escaped', detail: `the HTTP request was still open ${GRACE_MS} ms after close()` };
  return {
    status: 'contained',
    detail: `close() ended both renders (${a.code}, ${b.code}) in ${Math.round(ms)} ms; the adapter's signal aborted (${[...seen.reasons].join(', ')}) and the dripping connection closed`,
    figures: { renderEndMs: Math.round(ms) },
  };
}

export const CPU_OUTLIVED: SecurityCase[] = [
  {
    id: 'CPU-12',
    category: 'CPU',
    title: '{sendmail} to a relay slower than the wall clock: the send stops with its render, no mail goes after',
    run: mailAtTheWall,
  },
  {
    id: 'CPU-13',
    category: 'CPU',
    title: 'the engine closed while renders wait on an adapter and a dripping HTTP answer: both stop',
    run: closedEngine,
  },
];

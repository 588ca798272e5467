/**
 * Local services that speak the integration plugins' API shapes, served by the test API server
 * (http.ts, api.example.com on 127.0.0.2 through a test egress policy), and the test host's
 * settings pointing at them:
 *  - /chat/api/<method>: a Slack-compatible Web API (bearer bot token, `ok` semantics);
 *  - /social/2/tweets: X API v2 (bearer user token);
 *  - /cloud/token: an OAuth 2 token endpoint that verifies the JWT bearer assertion with the
 *    service account's public key (jose) and issues access tokens and ID tokens;
 *  - /cloud/pubsub/v1/projects/P/topics/T:publish and /analytics/v1beta/properties/N:runReport,
 *    which accept only the access tokens it issued for their scope.
 * Every request is recorded in `integrationRequests` so that tests can look at what was sent.
 */
import type http from 'node:http';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { SignJWT, importSPKI, jwtVerify, importPKCS8 } from 'jose';
import type { HostAdapters, SecretRecord } from '../../../src/host-api/host.js';

const TEST_SERVICE_BASE = 'https://api.example.com';
export const CHAT_TOKEN = 'xoxb-test-chat-token';
export const SOCIAL_TOKEN = 'x-test-user-token';
export const TOKEN_URL = `${TEST_SERVICE_BASE}/cloud/token`;
export const PUBSUB_SCOPE = 'https://www.googleapis.com/auth/pubsub';
export const ANALYTICS_SCOPE = 'https://www.googleapis.com/auth/analytics.readonly';
/** The issuer of the ID tokens the token endpoint makes. */
export const ID_TOKEN_ISSUER = 'https://accounts.example.com';

function keyPair(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** The test service account's key pair, and the token endpoint's own (it signs ID tokens). */
export const SA_KEYS = keyPair();
export const ISSUER_KEYS = keyPair();

/** A service-account key file as a cloud console hands it out. */
export function serviceAccountJson(email: string, projectId: string | null = 'test-project'): string {
  return JSON.stringify({
    type: 'service_account',
    ...(projectId ? { project_id: projectId } : {}),
    private_key_id: 'test-key-1',
    private_key: SA_KEYS.privatePem,
    client_email: email,
    token_uri: 'https://elsewhere.example.net/token',
  });
}

export const SA_EMAIL = 'smartcage@test-project.iam.example.com';
/** An account the token endpoint knows but refuses (invalid_grant). */
const DISABLED_SA_EMAIL = 'disabled@test-project.iam.example.com';

export const INTEGRATION_SECRETS: Record<string, SecretRecord> = {
  CHAT_TOKEN: { value: CHAT_TOKEN, hosts: ['api.example.com'] },
  SOCIAL_TOKEN: { value: SOCIAL_TOKEN, hosts: ['api.example.com'] },
  CLOUD_SA: { value: serviceAccountJson(SA_EMAIL) },
  DISABLED_SA: { value: serviceAccountJson(DISABLED_SA_EMAIL) },
};

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
export const integrationRequests: RecordedRequest[] = [];

/** Report rows per property ID: [dimension value, metric value]. A property not listed answers 500. */
export const analyticsReports = new Map<string, [string, string][]>([
  [
    '1001',
    [
      ['/news/detail/10', '30'],
      ['/news/news-11/', '12'],
      ['/news/detail/10?ref=mail', '5'],
      ['/about', '7'],
    ],
  ],
  ['1002', []],
]);

const THREAD = '1700000000.000100';
const MESSAGES = [
  { type: 'message', ts: THREAD, user: 'U0ALICE', text: 'Hello from the channel', thread_ts: THREAD, reply_count: 1 },
  { type: 'message', ts: '1700000100.000200', user: 'U0BOB', text: 'Later message' },
];
const REPLIES = [
  MESSAGES[0]!,
  { type: 'message', ts: '1700000050.000300', user: 'U0BOB', text: 'A reply', thread_ts: THREAD },
];

/** Access tokens issued, by token, with their scope. */
const accessTokens = new Map<string, string>();
let issued = 0;

type Send = (status: number, body: unknown) => void;

function bearer(req: http.IncomingMessage): string | null {
  const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
  return m ? m[1]! : null;
}

function chat(method: string, req: http.IncomingMessage, query: URLSearchParams, body: string, send: Send): void {
  if (bearer(req) !== CHAT_TOKEN) return send(200, { ok: false, error: 'invalid_auth' });
  const channel = query.get('channel');
  switch (method) {
    case 'conversations.history': {
      if (channel !== 'C0EXAMPLE') return send(200, { ok: false, error: 'channel_not_found' });
      const latest = query.get('latest');
      const inRange = MESSAGES.filter(
        (m) => latest === null || (m.ts <= latest && m.ts >= (query.get('oldest') ?? '0')),
      );
      const newest = [...inRange].reverse().slice(0, Number(query.get('limit') ?? '100'));
      return send(200, { ok: true, messages: newest, has_more: false });
    }
    case 'conversations.replies': {
      if (channel !== 'C0EXAMPLE') return send(200, { ok: false, error: 'channel_not_found' });
      const ts = query.get('ts');
      if (!REPLIES.some((m) => m.ts === ts)) return send(200, { ok: false, error: 'thread_not_found' });
      return send(200, { ok: true, messages: REPLIES.filter((m, i) => i === 0 || m.ts === ts) });
    }
    case 'chat.postMessage': {
      if (req.headers['content-type'] !== 'application/json; charset=utf-8')
        return send(200, { ok: false, error: 'invalid_form_data' });
      const msg = JSON.parse(body) as { channel?: string; text?: string; thread_ts?: string };
      if (msg.channel !== 'C0EXAMPLE')
        return send(200, { ok: false, error: msg.channel === 'C0ARCHIVED' ? 'is_archived' : 'channel_not_found' });
      if (msg.thread_ts !== undefined && !MESSAGES.some((m) => m.ts === msg.thread_ts))
        return send(200, { ok: false, error: 'thread_not_found' });
      return send(200, { ok: true, channel: msg.channel, ts: '1700000200.000100', message: { text: msg.text } });
    }
    case 'team.info': {
      const team = query.get('team');
      // Answers for the caps and the redaction: too large, too deep, too slow, echoing the token.
      if (team === 'T0HUGE') return send(200, { ok: true, team: { id: team, name: 'x'.repeat(1024 * 1024) } });
      if (team === 'T0DEEP')
        return send(200, { ok: true, team: JSON.parse('{"a":'.repeat(100) + '1' + '}'.repeat(100)) as unknown });
      if (team === 'T0SLOW') return void setTimeout(() => send(200, { ok: true, team: { id: team } }), 3000);
      if (team === 'T0ECHO')
        return send(200, { ok: true, team: { id: team, name: `seen ${req.headers.authorization ?? ''}` } });
      if (team !== null && team !== 'T0EXAMPLE') return send(200, { ok: false, error: 'team_not_found' });
      return send(200, {
        ok: true,
        team: { id: 'T0EXAMPLE', name: 'Example Team', domain: 'example', email_domain: '' },
      });
    }
    default:
      return send(200, { ok: false, error: 'unknown_method' });
  }
}

function social(req: http.IncomingMessage, body: string, send: Send): void {
  if (bearer(req) !== SOCIAL_TOKEN) return send(401, { title: 'Unauthorized', status: 401 });
  const text = (JSON.parse(body) as { text?: string }).text ?? '';
  if (text.includes('duplicate'))
    return send(403, {
      title: 'Forbidden',
      detail: 'You are not allowed to create a Tweet with duplicate content.',
      status: 403,
    });
  return send(201, { data: { id: '1800000000000000001', text, edit_history_tweet_ids: ['1800000000000000001'] } });
}

async function token(req: http.IncomingMessage, body: string, send: Send): Promise<void> {
  const form = new URLSearchParams(body);
  if (
    req.headers['content-type'] !== 'application/x-www-form-urlencoded' ||
    form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer'
  ) {
    return send(400, { error: 'unsupported_grant_type' });
  }
  let claims;
  try {
    ({ payload: claims } = await jwtVerify(form.get('assertion') ?? '', await importSPKI(SA_KEYS.publicPem, 'RS256'), {
      audience: TOKEN_URL,
      algorithms: ['RS256'],
    }));
  } catch {
    return send(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
  }
  if (claims.iss === DISABLED_SA_EMAIL)
    return send(400, { error: 'invalid_grant', error_description: 'Account disabled.' });
  if (typeof claims.target_audience === 'string') {
    const idToken = await new SignJWT({ email: claims.iss })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(ID_TOKEN_ISSUER)
      .setSubject(String(claims.iss))
      .setAudience(claims.target_audience)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(await importPKCS8(ISSUER_KEYS.privatePem, 'RS256'));
    return send(200, { id_token: idToken });
  }
  if (typeof claims.scope !== 'string') return send(400, { error: 'invalid_scope' });
  const access = `ya29.test-${++issued}`;
  accessTokens.set(access, claims.scope);
  return send(200, { access_token: access, expires_in: 3599, token_type: 'Bearer' });
}

function pubsub(path: string, req: http.IncomingMessage, body: string, send: Send): void {
  if (accessTokens.get(bearer(req) ?? '') !== PUBSUB_SCOPE)
    return send(401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
  const m = /^\/v1\/projects\/([^/]+)\/topics\/([^/]+):publish$/.exec(path);
  if (!m || m[2] === 'missing-topic')
    return send(404, { error: { code: 404, message: 'Resource not found', status: 'NOT_FOUND' } });
  const messages = (JSON.parse(body) as { messages?: { data?: string }[] }).messages ?? [];
  const ids = messages.map(
    (msg) =>
      `${createHash('sha256')
        .update(`${m[1]}/${m[2]}/${msg.data ?? ''}`)
        .digest('hex')
        .slice(0, 12)}`,
  );
  return send(200, { messageIds: ids });
}

function analytics(path: string, req: http.IncomingMessage, send: Send): void {
  if (accessTokens.get(bearer(req) ?? '') !== ANALYTICS_SCOPE)
    return send(401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
  const m = /^\/v1beta\/properties\/(\d+):runReport$/.exec(path);
  const rows = m ? analyticsReports.get(m[1]!) : undefined;
  if (!rows) return send(500, { error: { code: 500, status: 'INTERNAL' } });
  // GA4 leaves `rows` out of an empty report.
  const answer = {
    dimensionHeaders: [{ name: 'pagePath' }],
    metricHeaders: [{ name: 'screenPageViews', type: 'TYPE_INTEGER' }],
    ...(rows.length > 0
      ? { rows: rows.map(([d, v]) => ({ dimensionValues: [{ value: d }], metricValues: [{ value: v }] })) }
      : {}),
    rowCount: rows.length,
    kind: 'analyticsData#runReport',
  };
  return send(200, answer);
}

/** Answers a request of one of the services; false when the path is none of theirs. */
export function integrationRoute(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): boolean {
  const u = new URL(req.url ?? '/', 'http://x');
  const text = body.toString('utf8');
  const send: Send = (status, payload) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(JSON.stringify(payload));
  };
  const record = (): void =>
    void integrationRequests.push({
      method: req.method ?? '',
      path: u.pathname + u.search,
      headers: req.headers,
      body: text,
    });
  const p = u.pathname;
  if (p.startsWith('/chat/api/')) chat(p.slice('/chat/api/'.length), req, u.searchParams, text, send);
  else if (p === '/social/2/tweets' && req.method === 'POST') social(req, text, send);
  else if (p === '/cloud/token' && req.method === 'POST') void token(req, text, send);
  else if (p.startsWith('/cloud/pubsub/') && req.method === 'POST')
    pubsub(p.slice('/cloud/pubsub'.length), req, text, send);
  else if (p.startsWith('/analytics/') && req.method === 'POST') analytics(p.slice('/analytics'.length), req, send);
  else return false;
  record();
  return true;
}

/** The test host's integration settings (tenant "default" only; another tenant has none). */
export function integrationsTestAdapter(): (tenant: string) => Partial<HostAdapters> {
  return (tenant) => integrationsOf(tenant);
}

function integrationsOf(tenant: string): Partial<HostAdapters> {
  const only = <T>(value: T) => ({
    settings: async (): Promise<T | null> => (tenant === 'default' ? value : null),
  });
  return {
    chat: only({ apiBase: `${TEST_SERVICE_BASE}/chat/api`, tokenSecret: 'CHAT_TOKEN' }),
    social: only({ apiBase: `${TEST_SERVICE_BASE}/social`, tokenSecret: 'SOCIAL_TOKEN' }),
    cloud: only({
      tokenUrl: TOKEN_URL,
      pubsubBase: `${TEST_SERVICE_BASE}/cloud/pubsub`,
      saSecret: 'CLOUD_SA' as string | null,
    }),
    analytics: only({
      apiBase: `${TEST_SERVICE_BASE}/analytics`,
      propertyId: '1001',
      saSecret: 'CLOUD_SA',
      tokenUrl: TOKEN_URL,
    }),
  };
}

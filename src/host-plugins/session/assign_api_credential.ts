/**
 * {assign_api_credential}: a credential for a new request to the site's API. The keys stay on
 * the host: api_key and dg_key (secret handles are swapped for their values here) only key
 * HMACs, and the jwt is signed under a key derived (HKDF-SHA256) from the site key
 * (HostAdapters.crypto), so what the template receives is what the credential shows and no more.
 * With member_id the session and its access token come from HostAdapters.sessions.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { implement, type BridgeCall } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { PhpArray, type Value } from '../../value/value.js';
import { jsonEncode } from '../../php/json/encode.js';
import { missingAdapter } from '../../host-api/capabilities.js';
import { keysContain, mapStrings } from '../api/common.js';
import { checkActingMember } from './acting-member.js';
import declaration from '../../plugins/host-session/assign_api_credential.js';

/** jwt_data as JSON, at most this many characters: it travels in a header. */
const MAX_JWT_DATA = 4096;
const JWT_INFO = 'smartcage assign_api_credential jwt v1';
const JWT_HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function jwtKey(siteKey: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', siteKey, Buffer.alloc(0), Buffer.from(JWT_INFO), 32));
}

const hmacHex = (key: string, text: string): string => createHmac('sha256', key).update(text).digest('hex');

/** Text that may not carry a secret: the credential shows it to whoever holds it. */
function noSecrets(call: BridgeCall, what: string, v: Value): void {
  mapStrings(v, (s) => call.secrets.substitute(s, `{assign_api_credential ${what}}`, () => false));
  if (keysContain(v, (k) => call.secrets.contains(k)))
    throw new BridgeError('E_SECRET_DENIED', `a secret may not be used in {assign_api_credential ${what}}`);
}

function jwtDataJson(call: BridgeCall, data: Value): string | null {
  if (!(data instanceof PhpArray)) return null;
  noSecrets(call, 'jwt_data', data);
  const json = jsonEncode(data);
  if (json === false)
    throw new BridgeError('E_BAD_ATTRIBUTE', '{assign_api_credential} jwt_data= cannot be encoded as JSON');
  if (json.length > MAX_JWT_DATA)
    throw new BridgeError(
      'E_SIZE_LIMIT',
      `{assign_api_credential} jwt_data= is longer than ${MAX_JWT_DATA} characters as JSON`,
    );
  return json;
}

/** An HS256 JWT; `data` is spliced in as PHP encoded it (lists stay lists, key order kept). */
function signJwt(key: Buffer, claims: Record<string, string | number>, data: string | null): string {
  const json = JSON.stringify(claims);
  const payload = data === null ? json : `${json.slice(0, -1)},"data":${data}}`;
  const input = `${JWT_HEADER}.${Buffer.from(payload).toString('base64url')}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}

/**
 * The claims of a jwt this plugin made for `tenant` under `siteKey`, or null when it is not one
 * (another site key, tampered, malformed) or expired at `now` (Unix seconds): for the site that
 * receives the credential.
 */
export function verifyCredentialJwt(
  siteKey: Uint8Array,
  tenant: string,
  jwt: string,
  now: number,
): Record<string, unknown> | null {
  const parts = jwt.split('.');
  if (parts.length !== 3 || parts[0] !== JWT_HEADER) return null;
  const want = createHmac('sha256', jwtKey(siteKey)).update(`${parts[0]}.${parts[1]}`).digest();
  const got = Buffer.from(parts[2]!, 'base64url');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof claims !== 'object' || claims === null) return null;
  const c = claims as Record<string, unknown>;
  return c.iss === tenant && typeof c.exp === 'number' && c.exp > now ? c : null;
}

export const assignApiCredential = implement(declaration, async (attrs, call, sessions) => {
  const crypto = call.host.crypto;
  if (!crypto) throw missingAdapter('{assign_api_credential}', 'crypto');
  const tenant = call.identity.tenant;
  const target = String(attrs.var);
  const apiKey = call.secrets.substitute(String(attrs.api_key), '{assign_api_credential api_key}', () => true);
  if (apiKey === '') throw new BridgeError('E_BAD_ATTRIBUTE', '{assign_api_credential} api_key= is empty');
  const hasDgKey = typeof attrs.dg_key === 'string';
  if (hasDgKey !== (typeof attrs.dg_id === 'string'))
    throw new BridgeError('E_BAD_COMBINATION', '{assign_api_credential} dg_key and dg_id go together');
  const dgKey = hasDgKey
    ? call.secrets.substitute(String(attrs.dg_key), '{assign_api_credential dg_key}', () => true)
    : null;
  const dgId = hasDgKey ? String(attrs.dg_id) : null;
  if (dgId !== null) noSecrets(call, 'dg_id', dgId);
  const data = jwtDataJson(call, attrs.jwt_data ?? null);
  const memberId = typeof attrs.member_id === 'number' ? attrs.member_id : null;
  if (memberId !== null) {
    await checkActingMember('assign_api_credential', memberId, call);
  }
  const expire = Number(attrs.expire);
  const now = Math.floor(Date.now() / 1000);

  let key: Buffer;
  let session: { sessionId: string; accessToken: string } | null = null;
  try {
    key = jwtKey(await crypto.siteKey());
    if (memberId !== null) session = await sessions.issue(memberId, expire);
  } catch (e) {
    if (e instanceof BridgeError) throw e;
    return {
      assign: [[target, false]],
      log: [{ level: 'warning', message: '{assign_api_credential} the site could not make the credential' }],
    };
  }
  const base = { iss: tenant, iat: now, exp: now + expire };
  if (session !== null) {
    return {
      assign: [
        [
          target,
          PhpArray.fromEntries([
            ['session_id', session.sessionId],
            ['X-RCMS-API-ACCESS-TOKEN', session.accessToken],
            ['jwt', signJwt(key, { ...base, member_id: memberId! }, data)],
          ]),
        ],
      ],
    };
  }
  const sid = randomBytes(16).toString('hex');
  return {
    assign: [
      [
        target,
        PhpArray.fromEntries([
          ['signature', hmacHex(apiKey, sid)],
          ['DG_CODE', dgKey === null ? null : hmacHex(dgKey, `${dgId}:${sid}`)],
          ['sid', sid],
          ['jwt', signJwt(key, { ...base, sid }, data)],
        ]),
      ],
    ],
  };
});

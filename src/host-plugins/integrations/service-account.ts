/**
 * Tokens from a service-account key (the JSON key file a cloud console hands out, kept as a
 * secret): a JWT signed RS256 with its private key (jose) is exchanged at the settings' token
 * endpoint with the JWT bearer grant (RFC 7523), for an access token (scope) or an ID token
 * (target_audience). The key never leaves the host and never enters the isolate; the token
 * endpoint comes from the site's settings, never from the key file's `token_uri`
 * (docs/decisions.md D112).
 */
import { SignJWT, importPKCS8 } from 'jose';
import type { BridgeCall } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { ServiceFailure, record, requestJson, secretRecord, settingsUrl } from './common.js';

type SigningKey = Awaited<ReturnType<typeof importPKCS8>>;

/** Lifetime asked for in an assertion, in seconds (the most the grant accepts). */
const ASSERTION_SECONDS = 3600;

export interface ServiceAccount {
  /** The secret's name, for messages. */
  name: string;
  clientEmail: string;
  keyId: string | null;
  projectId: string | null;
  privateKey: SigningKey;
}

/**
 * The service account in the secret `name`. A secret that is not such a key is E_BAD_ATTRIBUTE
 * with a message that says nothing of its content.
 */
export async function serviceAccount(call: BridgeCall, plugin: string, name: string): Promise<ServiceAccount> {
  const { value } = await secretRecord(call, plugin, name);
  const notKey = (): BridgeError =>
    new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{${plugin}} the secret "${name}" is not a service-account key (JSON with client_email and an RSA private_key)`,
    );
  let json: Record<string, unknown> | null;
  try {
    json = record(JSON.parse(value));
  } catch {
    throw notKey();
  }
  const email = json?.client_email;
  const pem = json?.private_key;
  if (typeof email !== 'string' || email === '' || typeof pem !== 'string') throw notKey();
  let privateKey: SigningKey;
  try {
    privateKey = await importPKCS8(pem, 'RS256');
  } catch {
    throw notKey();
  }
  const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  return { name, clientEmail: email, keyId: str(json?.private_key_id), projectId: str(json?.project_id), privateKey };
}

/** What the token is for: an access token of `scope`, or an ID token whose audience is `audience`. */
export type TokenRequest = { scope: string } | { audience: string };

/**
 * Signs the assertion and exchanges it at `tokenUrl`; answers the access or ID token. A token
 * endpoint that refuses or fails is a ServiceFailure (var=false in the plugins).
 */
export async function serviceToken(
  call: BridgeCall,
  plugin: string,
  sa: ServiceAccount,
  tokenUrl: string,
  want: TokenRequest,
): Promise<string> {
  const url = settingsUrl(plugin, tokenUrl, '');
  const now = Math.floor(Date.now() / 1000);
  const claims = 'scope' in want ? { scope: want.scope } : { target_audience: want.audience };
  const assertion = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(sa.keyId ? { kid: sa.keyId } : {}) })
    .setIssuer(sa.clientEmail)
    .setSubject(sa.clientEmail)
    .setAudience(url.href)
    .setIssuedAt(now)
    .setExpirationTime(now + ASSERTION_SECONDS)
    .sign(sa.privateKey);
  const body = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString();
  const { status, json } = await requestJson(call, plugin, {
    method: 'POST',
    url,
    headers: [['Content-Type', 'application/x-www-form-urlencoded']],
    body,
  });
  const field = 'scope' in want ? 'access_token' : 'id_token';
  const token = record(json)?.[field];
  if (status !== 200 || typeof token !== 'string' || token === '') {
    const error = record(json)?.error;
    throw new ServiceFailure(
      `the token endpoint gave no ${field} (HTTP ${status}${typeof error === 'string' ? `, ${error.slice(0, 80)}` : ''})`,
    );
  }
  return token;
}

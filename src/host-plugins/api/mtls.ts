/**
 * {api}'s mTLS attributes: three secret names (sslcert, sslkey, cainfo) turned into the PEM texts
 * of one egress request (EgressRequest.tls). The values stay on the host: they go to the guard,
 * never to the isolate, and no message quotes them. Each secret's `hosts` must list the
 * endpoint's origin, as for a secret in a header; the endpoint must be https.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import type { BridgeCall } from '../plugin-contract.js';
import type { ClientTls } from '../../host-adapters/egress/guard.js';
import type { Value } from '../../value/value.js';
import { BridgeError } from '../../host-api/errors.js';
import { hostAllows } from './common.js';

const SECRET_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const ATTRS = ['sslcert', 'sslkey', 'cainfo'] as const;
type TlsAttr = (typeof ATTRS)[number];

/** What each attribute's secret must hold, checked by parsing it (never by showing it). */
const CHECKS: Record<TlsAttr, { what: string; ok: (pem: string) => boolean }> = {
  sslcert: { what: 'a PEM certificate', ok: (pem) => parses(() => new X509Certificate(pem)) },
  sslkey: { what: 'an unencrypted PEM private key', ok: (pem) => parses(() => createPrivateKey(pem)) },
  cainfo: { what: 'a PEM CA certificate', ok: (pem) => parses(() => new X509Certificate(pem)) },
};

function parses(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch {
    return false;
  }
}

/**
 * The mTLS material of a call, or undefined when it names none. Refusals: only one of
 * sslcert/sslkey, or plain http (E_BAD_COMBINATION); a missing secret (E_SECRET_NOT_FOUND); a
 * secret whose hosts do not list the origin (E_SECRET_DENIED); a value that is not what the
 * attribute needs, or a key that does not belong to the certificate (E_BAD_ATTRIBUTE).
 */
export async function clientTls(
  attrs: Record<string, Value>,
  call: BridgeCall,
  url: URL,
): Promise<ClientTls | undefined> {
  const named = ATTRS.filter((k) => typeof attrs[k] === 'string' && attrs[k] !== '');
  if (named.length === 0) return undefined;
  if (named.includes('sslcert') !== named.includes('sslkey'))
    throw new BridgeError('E_BAD_COMBINATION', '{api} mTLS needs both sslcert and sslkey');
  const origin = `${url.protocol}//${url.hostname.toLowerCase()}`;
  const pem: Partial<Record<TlsAttr, string>> = {};
  for (const attr of named) {
    const name = String(attrs[attr]);
    const record = SECRET_NAME.test(name) && call.host.secrets ? await call.host.secrets.get(name) : null;
    if (!record) throw new BridgeError('E_SECRET_NOT_FOUND', `no secret named ${JSON.stringify(name.slice(0, 128))}`);
    if (!hostAllows(record, url))
      throw new BridgeError('E_SECRET_DENIED', `the secret ${name} may not be sent to ${origin} (${attr}=)`);
    if (!CHECKS[attr].ok(record.value))
      throw new BridgeError('E_BAD_ATTRIBUTE', `{api} ${attr}=: the secret ${name} does not hold ${CHECKS[attr].what}`);
    pem[attr] = record.value;
  }
  if (url.protocol !== 'https:')
    throw new BridgeError('E_BAD_COMBINATION', `{api} mTLS needs an https endpoint, not ${origin}`);
  if (
    pem.sslcert !== undefined &&
    pem.sslkey !== undefined &&
    !new X509Certificate(pem.sslcert).checkPrivateKey(createPrivateKey(pem.sslkey))
  ) {
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{api} the key of ${String(attrs.sslkey)} does not belong to the certificate of ${String(attrs.sslcert)}`,
    );
  }
  return {
    ...(pem.sslcert !== undefined ? { cert: pem.sslcert } : {}),
    ...(pem.sslkey !== undefined ? { key: pem.sslkey } : {}),
    ...(pem.cainfo !== undefined ? { ca: pem.cainfo } : {}),
  };
}

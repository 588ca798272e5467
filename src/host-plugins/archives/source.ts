/**
 * Where the archive plugins read from: a `/files/g/...` path of the tenant's store or an https URL
 * fetched through HostAdapters.http (the egress guard), never more than `cap` bytes. A URL counts
 * against the render's request budget of {api} (api/common.ts); a secret handle in it is refused,
 * as in {api}'s endpoint. A value that is neither an https URL nor an allowed path (http://,
 * file://, /files/user/...) is E_PATH_DENIED from the plugin's root rule (plugin-roots.ts).
 */
import type { BridgeCall } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { missingAdapter } from '../../host-api/capabilities.js';
import { isErrorCode } from '../../protocol/error-codes.js';
import { checkPluginPath } from '../../host-adapters/files/plugin-roots.js';
import type { VirtualPath } from '../../host-adapters/files/virtual-path.js';
import type { Value } from '../../value/value.js';
import { chargeRequest } from '../api/common.js';
import { tenantFiles } from '../files/common.js';

/** A source as the template named it: a checked path, or a URL. */
export type SourceRef = { path: VirtualPath } | { url: string };

/** Time kept back for the work after a fetch (writing the result). */
const RESERVE_MS = 50;

function shown(s: string): string {
  return JSON.stringify(s.length > 120 ? `${s.slice(0, 120)}...` : s);
}

/** Checks a source attribute before any work: an https URL as it is, anything else against the root rule. */
export function sourceRef(plugin: string, attr: string, value: Value | undefined, call: BridgeCall): SourceRef {
  if (typeof value === 'string' && /^https:\/\//i.test(value)) {
    call.secrets.substitute(value, `{${plugin}} ${attr}= (a URL)`, () => false);
    return { url: value };
  }
  return { path: checkPluginPath(plugin, attr, value) };
}

/** The source's bytes, at most `cap` of them (E_SIZE_LIMIT past it, checked before reading where the size is known). */
export async function readSource(plugin: string, ref: SourceRef, cap: number, call: BridgeCall): Promise<Uint8Array> {
  if ('path' in ref) {
    const files = tenantFiles(call, plugin);
    const { size, isDir } = await files.stat(ref.path);
    if (isDir) throw new BridgeError('E_FILE_FAILED', `{${plugin}} ${shown(ref.path.text)} is a folder, not a file`);
    if (size > cap)
      throw new BridgeError('E_SIZE_LIMIT', `{${plugin}} ${shown(ref.path.text)} is more than ${cap} bytes`);
    const bytes = await files.read(ref.path);
    if (bytes.length > cap)
      throw new BridgeError('E_SIZE_LIMIT', `{${plugin}} ${shown(ref.path.text)} is more than ${cap} bytes`);
    return bytes;
  }
  const http = call.host.http;
  if (!http) throw missingAdapter(`{${plugin}} with a URL`, 'http');
  const left = call.timeLeft() - RESERVE_MS;
  if (left <= 0)
    throw new BridgeError('E_WALL_TIMEOUT', `{${plugin}} no time left in the render to fetch ${shown(ref.url)}`);
  chargeRequest(call, plugin);
  let res;
  try {
    res = await http.fetch({ method: 'GET', url: ref.url, timeoutMs: left, maxResponseBytes: cap });
  } catch (e) {
    const code = (e as { code?: unknown } | null)?.code;
    const reason = e instanceof Error ? e.message.replace(/: ".*"$/s, '') : 'request failed';
    throw new BridgeError(isErrorCode(code) ? code : 'E_HTTP_FAILED', `{${plugin}} ${reason}: ${shown(ref.url)}`);
  }
  if (res.status < 200 || res.status > 299)
    throw new BridgeError('E_HTTP_FAILED', `{${plugin}} ${shown(ref.url)} answered HTTP ${res.status}`);
  if (res.body.length > cap)
    throw new BridgeError('E_SIZE_LIMIT', `{${plugin}} ${shown(ref.url)} is more than ${cap} bytes`);
  return res.body;
}

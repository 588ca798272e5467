/**
 * The chat plugins' one call of a Slack-compatible Web API: `{apiBase}/{method}` with the bot
 * token as a bearer, query parameters for reads and a JSON body for writes. The API answers HTTP
 * 200 with `ok: false` and an `error` for a refused call: that is a ServiceFailure like a network
 * failure (var=false).
 */
import type { BridgeCall } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { ServiceFailure, bearerHeader, record, requestJson, settingsOf, settingsUrl } from './common.js';

/** Channel IDs and message timestamps as the API writes them (`C0123ABCD`, `1700000000.000100`). */
export const CHANNEL_ID = /^[A-Z0-9][A-Z0-9_-]{0,79}$/i;
const MESSAGE_TS = /^\d{1,12}\.\d{1,9}$/;

export function checkChannel(plugin: string, channel: string): string {
  if (!CHANNEL_ID.test(channel))
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{${plugin}} channel= is not a channel ID (letters and digits, like C0123ABCD)`,
    );
  return channel;
}

export function checkTs(plugin: string, attr: string, ts: string): string {
  if (!MESSAGE_TS.test(ts))
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{${plugin}} ${attr}= is not a message timestamp (like 1700000000.000100)`,
    );
  return ts;
}

/** Calls `method`; answers the API's JSON object when it says `ok: true`. */
export async function chatApi(
  call: BridgeCall,
  plugin: string,
  method: string,
  params: Record<string, string>,
  post = false,
): Promise<Record<string, unknown>> {
  const settings = await settingsOf(call, plugin, 'chat');
  const url = settingsUrl(plugin, settings.apiBase, `/${method}`);
  if (!post) for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const auth = await bearerHeader(call, plugin, settings.tokenSecret, url);
  const { status, json } = await requestJson(call, plugin, {
    method: post ? 'POST' : 'GET',
    url,
    headers: post ? [auth, ['Content-Type', 'application/json; charset=utf-8']] : [auth],
    ...(post ? { body: JSON.stringify(params) } : {}),
  });
  const answer = record(json);
  if (!answer || answer.ok !== true) {
    const error = typeof answer?.error === 'string' ? answer.error.slice(0, 80) : `HTTP ${status}`;
    throw new ServiceFailure(`${method} failed: ${error}`);
  }
  return answer;
}

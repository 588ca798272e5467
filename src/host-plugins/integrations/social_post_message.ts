/**
 * {social_post_message}: one post through an X-API-v2-compatible service (`POST /2/tweets`),
 * with the OAuth 2 user token of the site's social settings. var receives the created post
 * (`id`, `text`), or false when the service refuses or fails.
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { fromJS } from '../../value/value.js';
import { ServiceFailure, bearerHeader, orFalse, record, requestJson, settingsOf, settingsUrl } from './common.js';
import declaration from '../../plugins/host-integrations/social_post_message.js';

const PLUGIN = 'social_post_message';
/** Characters of a post sent on (the service counts its own weighted length and refuses past it). */
export const MAX_SOCIAL_TEXT_CHARS = 25_000;

export const socialPostMessage = implement(declaration, (attrs, call) =>
  orFalse(PLUGIN, attrs.var, async () => {
    const text = String(attrs.text);
    if (text === '') throw new BridgeError('E_BAD_ATTRIBUTE', `{${PLUGIN}} text= is empty`);
    if (text.length > MAX_SOCIAL_TEXT_CHARS)
      throw new BridgeError('E_SIZE_LIMIT', `{${PLUGIN}} text= is longer than ${MAX_SOCIAL_TEXT_CHARS} characters`);
    const settings = await settingsOf(call, PLUGIN, 'social');
    const url = settingsUrl(PLUGIN, settings.apiBase, '/2/tweets');
    const auth = await bearerHeader(call, PLUGIN, settings.tokenSecret, url);
    const { status, json } = await requestJson(call, PLUGIN, {
      method: 'POST',
      url,
      headers: [auth, ['Content-Type', 'application/json']],
      body: JSON.stringify({ text }),
    });
    const data = record(record(json)?.data);
    if (status < 200 || status >= 300 || typeof data?.id !== 'string') {
      const problem = record(json)?.title ?? record(json)?.detail;
      throw new ServiceFailure(
        `the post was not created (HTTP ${status}${typeof problem === 'string' ? `, ${problem.slice(0, 80)}` : ''})`,
      );
    }
    return typeof attrs.var === 'string' ? { assign: [[attrs.var, fromJS(data)]] } : {};
  }),
);

/**
 * {chat_get_message}: one message of a channel, by its `ts`: the channel's history between ts
 * and ts, and when the message is a thread reply (not in the history) the thread's replies.
 * Without `ts`, the channel's latest message. var receives the message as the API gives it, or
 * false when the service fails or has no such message.
 */
import { implement } from '../plugin-contract.js';
import { fromJS } from '../../value/value.js';
import { ServiceFailure, orFalse, record } from './common.js';
import { chatApi, checkChannel, checkTs } from './chat.js';
import declaration from '../../plugins/host-integrations/chat_get_message.js';

const PLUGIN = 'chat_get_message';

function find(answer: Record<string, unknown>, ts: string | null): Record<string, unknown> | null {
  const messages = Array.isArray(answer.messages) ? answer.messages : [];
  for (const m of messages) {
    const message = record(m);
    if (message && (ts === null || message.ts === ts)) return message;
  }
  return null;
}

export const chatGetMessage = implement(declaration, (attrs, call) =>
  orFalse(PLUGIN, attrs.var, async () => {
    const channel = checkChannel(PLUGIN, String(attrs.channel));
    const ts = typeof attrs.ts === 'string' && attrs.ts !== '' ? checkTs(PLUGIN, 'ts', attrs.ts) : null;
    const range: Record<string, string> = ts === null ? {} : { latest: ts, oldest: ts, inclusive: 'true' };
    let message = find(await chatApi(call, PLUGIN, 'conversations.history', { channel, ...range, limit: '1' }), ts);
    if (!message && ts !== null)
      message = find(await chatApi(call, PLUGIN, 'conversations.replies', { channel, ts, ...range, limit: '2' }), ts);
    if (!message)
      throw new ServiceFailure(ts === null ? 'the channel has no message' : `the channel has no message ${ts}`);
    return typeof attrs.var === 'string' ? { assign: [[attrs.var, fromJS(message)]] } : {};
  }),
);

/**
 * {chat_post_message}: chat.postMessage. `users` become mentions (`<@U123>`) before the text,
 * `thread_ts` answers in a thread. var receives true when the API accepted the message, false
 * otherwise (spec, Errors).
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { PhpArray, type Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { orFalse } from './common.js';
import { chatApi, checkChannel, checkTs } from './chat.js';
import declaration from '../../plugins/host-integrations/chat_post_message.js';

const PLUGIN = 'chat_post_message';
/** Characters of a message (the Web API truncates longer texts). */
export const MAX_CHAT_TEXT_CHARS = 40_000;
/** Users mentioned in one message. */
export const MAX_CHAT_MENTIONS = 100;
/** A user ID: mentions are built from these only, so a template cannot slip in `<!channel>`. */
const USER_ID = /^[UW][A-Z0-9]{1,40}$/;

function mentions(users: Value): string[] {
  if (users === null || users === undefined || users === '') return [];
  const list = users instanceof PhpArray ? users.values() : [users];
  if (list.length > MAX_CHAT_MENTIONS)
    throw new BridgeError('E_SIZE_LIMIT', `{${PLUGIN}} users= lists more than ${MAX_CHAT_MENTIONS} users`);
  return list.map((u) => {
    const id = u instanceof PhpArray ? '' : toStr(u);
    if (!USER_ID.test(id))
      throw new BridgeError(
        'E_BAD_ATTRIBUTE',
        `{${PLUGIN}} users= holds "${id.slice(0, 40)}", which is not a user ID (like U0123ABCD)`,
      );
    return `<@${id}>`;
  });
}

export const chatPostMessage = implement(declaration, (attrs, call) =>
  orFalse(PLUGIN, attrs.var, async () => {
    const channel = checkChannel(PLUGIN, String(attrs.channel));
    const text = [
      ...mentions(attrs.users),
      ...(typeof attrs.text === 'string' && attrs.text !== '' ? [attrs.text] : []),
    ].join(' ');
    if (text === '') throw new BridgeError('E_BAD_ATTRIBUTE', `{${PLUGIN}} needs text= or users=`);
    if (text.length > MAX_CHAT_TEXT_CHARS)
      throw new BridgeError('E_SIZE_LIMIT', `{${PLUGIN}} the message is longer than ${MAX_CHAT_TEXT_CHARS} characters`);
    const params: Record<string, string> = { channel, text };
    if (typeof attrs.thread_ts === 'string' && attrs.thread_ts !== '')
      params.thread_ts = checkTs(PLUGIN, 'thread_ts', attrs.thread_ts);
    await chatApi(call, PLUGIN, 'chat.postMessage', params, true);
    return typeof attrs.var === 'string' ? { assign: [[attrs.var, true]] } : {};
  }),
);

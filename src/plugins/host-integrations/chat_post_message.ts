import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'chat_post_message',
  host: 'chat',
  summary:
    "Posts a message to a channel of the site's chat service (chat.postMessage of a Slack-compatible Web API) with the bot token of the site's chat settings. " +
    "`users` (user IDs only) become mentions `<@U...>` before the text; `thread_ts` answers in that message's thread. " +
    '`var` receives true when the service accepted the message, false otherwise. At most 40000 characters and 100 mentions (E_SIZE_LIMIT).',
  attrs: {
    var: { type: 'varname', doc: 'Receives true (posted) or false.' },
    channel: { type: 'string', required: true, maxLength: 80, doc: 'Channel ID (like C0123ABCD).' },
    users: { type: 'mixed', doc: 'User IDs to mention (an array, or one ID).' },
    text: { type: 'string', doc: "The message (the service's mrkdwn)." },
    thread_ts: { type: 'string', maxLength: 40, doc: 'Timestamp of the message to answer in its thread.' },
  },
  examples: [
    {
      template: '{chat_post_message var=ok channel="C0EXAMPLE" users=$who text="the build is done"}{if $ok}posted{/if}',
      vars: { who: ['U0ALICE'] },
      output: 'posted',
    },
    {
      template: '{chat_post_message var=ok channel="C0ARCHIVED" text="hello"}{if $ok}posted{else}not posted{/if}',
      output: 'not posted',
    },
  ],
});

import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'chat_get_message',
  host: 'chat',
  summary:
    "Gets one message of a channel from the site's chat service (a Slack-compatible Web API: conversations.history, then conversations.replies for a thread reply), with the bot token of the site's chat settings. " +
    "`var` receives the message as the API gives it (`ts`, `user`, `text`...), or false when the service fails or has no such message (a warning says why). Without `ts`: the channel's latest message.",
  attrs: {
    var: { type: 'varname', doc: 'Receives the message, or false.' },
    channel: { type: 'string', required: true, maxLength: 80, doc: 'Channel ID (like C0123ABCD).' },
    ts: { type: 'string', maxLength: 40, doc: "The message's timestamp (like 1700000000.000100)." },
  },
  examples: [
    {
      template: '{chat_get_message var=m channel="C0EXAMPLE" ts="1700000000.000100"}{$m.user}: {$m.text}',
      output: 'U0ALICE: Hello from the channel',
    },
    {
      template: '{chat_get_message var=m channel="C0EXAMPLE" ts="1700000050.000300"}{$m.text} (thread {$m.thread_ts})',
      output: 'A reply (thread 1700000000.000100)',
    },
  ],
});

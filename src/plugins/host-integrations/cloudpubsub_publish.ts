import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'cloudpubsub_publish',
  host: 'cloud',
  summary:
    "Publishes one message to a topic of the cloud's publish/subscribe REST API, with an access token of the service account (`sa_secret_name`, default the cloud settings'). " +
    "`project` defaults to the key's project_id. A string `message` is sent as it is; any other value as JSON (unescaped Unicode and slashes). " +
    '`var` receives the message ID, or false when the token endpoint or the API refuses or fails. At most 1 MiB of data (E_SIZE_LIMIT).',
  attrs: {
    var: { type: 'varname', required: true, doc: 'Receives the message ID, or false.' },
    topic: {
      type: 'string',
      required: true,
      maxLength: 255,
      doc: 'Topic name (not the full projects/.../topics/... path).',
    },
    message: { type: 'mixed', required: true, doc: 'The message: a string as it is, anything else as JSON.' },
    project: { type: 'string', maxLength: 30, doc: "Project ID; default: the service account's project_id." },
    sa_secret_name: { type: 'string', maxLength: 128, doc: 'Name of the service-account secret.' },
  },
  examples: [
    {
      template: '{cloudpubsub_publish var=id topic="orders" message=$order}{if $id}published{/if}',
      vars: { order: { id: 12, items: ['book'] } },
      output: 'published',
    },
    {
      template:
        '{cloudpubsub_publish var=id topic="missing-topic" message="hello"}{if $id === false}not published{/if}',
      output: 'not published',
    },
  ],
});

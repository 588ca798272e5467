import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'social_post_message',
  host: 'social',
  summary:
    "Posts to the site's social network account: `POST /2/tweets` of an X-API-v2-compatible service, with the OAuth 2 user token of the site's social settings (without them: E_HOST_CAPABILITY). " +
    '`var` receives the new post (`id`, `text`), or false when the service refuses or fails. `text` at most 25000 characters here (E_SIZE_LIMIT); the service applies its own length rule.',
  attrs: {
    var: { type: 'varname', doc: 'Receives the post, or false.' },
    text: { type: 'string', required: true, doc: 'The post.' },
  },
  examples: [
    { template: '{social_post_message var=post text="New article: hello"}{$post.id}', output: '1800000000000000001' },
    {
      template: '{social_post_message var=post text="duplicate post"}{if $post === false}refused{/if}',
      output: 'refused',
    },
  ],
});

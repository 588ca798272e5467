import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'repo_deploy',
  host: 'deploy',
  summary:
    "Starts a build and deploy of the front end: a POST without body to the site's build hook (site.json `deploy.hook_url`, with the secret `deploy.token_secret` as a bearer token when set), through the egress guard. " +
    "`result_var` is true for a 2xx answer, false otherwise (no hook configured, a failed request, another status; a warning says which). A token secret whose hosts do not list the hook's origin is E_SECRET_DENIED.",
  attrs: {
    result_var: { type: 'varname', doc: 'Receives true on success, false on failure.' },
  },
  examples: [
    { template: '{repo_deploy result_var=r}{if $r}deploying{else}no build hook{/if}', output: 'no build hook' },
  ],
});

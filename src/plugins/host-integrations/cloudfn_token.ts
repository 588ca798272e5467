import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'cloudfn_token',
  host: 'cloud',
  summary:
    "Gets an ID token for calling a cloud function: the service account (a JSON key kept as the secret `sa_secret_name`, default the cloud settings') signs an RS256 assertion with target_audience = `url`, which the cloud settings' token endpoint exchanges for an ID token (send it as `Authorization: Bearer` with {api}). " +
    '`var` receives the token, or false when the token endpoint refuses or fails. A secret that is not a service-account key is E_BAD_ATTRIBUTE.',
  attrs: {
    var: { type: 'varname', required: true, doc: 'Receives the ID token, or false.' },
    url: { type: 'string', required: true, maxLength: 2048, doc: "The function's URL: the token's audience." },
    sa_secret_name: { type: 'string', maxLength: 128, doc: 'Name of the service-account secret.' },
  },
  examples: [
    {
      template: '{cloudfn_token var=t url="https://fn.example.com/hello"}{if $t}got a token{/if}',
      output: 'got a token',
    },
    {
      template:
        '{cloudfn_token var=t url="https://fn.example.com/hello" sa_secret_name="DISABLED_SA"}{if $t === false}refused{/if}',
      output: 'refused',
    },
  ],
});

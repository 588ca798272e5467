import { defineFunction } from '../types.js';
import { ROW_BUDGETS } from '../budgets.js';

export default defineFunction({
  kind: 'function',
  name: 'assign_api_credential',
  host: 'sessions',
  budget: ROW_BUDGETS.sessions,
  summary:
    "Makes a credential for a new request to the site's API and assigns it to `var`. " +
    'Without member_id: `sid` (a new random id), `signature` (HMAC-SHA256 of sid under api_key, hex), `DG_CODE` (HMAC-SHA256 of "dg_id:sid" under dg_key, hex; null without dg_key and dg_id) and `jwt`. ' +
    'With member_id: `session_id` (a new session of that member, sent as the session cookie), `X-RCMS-API-ACCESS-TOKEN` (the access token of that session, for the header of that name) and `jwt`. ' +
    'The jwt is HS256 under a key derived from the site key (which never enters the isolate): claims iss (the site key), iat, exp, then sid or member_id, and jwt_data as `data`. ' +
    'member_id has the rules of {login}: a numeric literal unless the render runs for a super user, never a super user (E_IDENTITY_DENIED), a member of this site (E_NOT_FOUND). ' +
    "api_key and dg_key may be secret handles ({secret}); secrets are refused in dg_id and jwt_data (E_SECRET_DENIED), which the credential shows. A failure of the site's store assigns false.",
  attrs: {
    api_key: {
      type: 'string',
      required: true,
      maxLength: 1024,
      doc: 'The key the signature is made with (the API key the receiving side shares); may be a secret handle.',
    },
    var: {
      type: 'varname',
      required: true,
      doc: 'Receives the credential (an array), or false when the site could not make it.',
    },
    dg_key: { type: 'string', maxLength: 1024, doc: 'Key of DG_CODE (with dg_id); may be a secret handle.' },
    dg_id: { type: 'string', maxLength: 256, doc: 'Id DG_CODE is made for (with dg_key).' },
    jwt_data: { type: 'array', doc: 'Data carried in the jwt as its `data` claim (at most 4096 characters as JSON).' },
    member_id: {
      type: 'int',
      min: 1,
      literalUnlessSuperUser: true,
      doc: 'Make a session of this member: a numeric literal; never a super user.',
    },
    expire: {
      type: 'int',
      min: 1,
      max: 2592000,
      default: 3600,
      doc: 'Seconds the credential (jwt, session, token) lives: 1..2592000 (30 days).',
    },
  },
  examples: [
    {
      template: '{assign_api_credential api_key="shared-api-key" var=c}{foreach from=$c key=k item=v}{$k};{/foreach}',
      output: 'signature;DG_CODE;sid;jwt;',
    },
    {
      template:
        '{assign_api_credential api_key="shared-api-key" member_id=2 var=c}{foreach from=$c key=k item=v}{$k};{/foreach}',
      output: 'session_id;X-RCMS-API-ACCESS-TOKEN;jwt;',
    },
    {
      template: '{assign_api_credential api_key="k" var=c}{$c.signature|strlen} {$c.jwt|substr_count:"."}',
      output: '64 2',
    },
  ],
});

import { defineModifier } from '../types.js';
import { isInnerUri } from '../../php/filter/inner-uri.js';

/**
 * Platform helper: true when the URL leads to the site itself (a path starting with one "/",
 * or an http(s) or protocol-relative URL whose host and port are ROOT_URL's), for guarding
 * redirects. Every rule is documented in src/php/filter/inner-uri.ts; doubtful URLs
 * (user info, backslashes, control characters, upper case or trailing-dot hosts, other
 * schemes) are refused.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'check_inner_uri',
  origin: 'platform',
  summary: 'True when a URL points to this site (relative "/path" or ROOT_URL\'s host), false otherwise.',
  params: [],
  examples: [
    {
      template:
        "[{'/news/?id=1'|check_inner_uri}][{'//evil.test/'|check_inner_uri}][{'javascript:alert(1)'|check_inner_uri}]",
      output: '[1][][]',
    },
  ],
  run(input, _args, ctx) {
    return typeof input === 'string' && isInnerUri(input, ctx.site.rootUrl);
  },
});

import { defineModifier } from '../types.js';
import { intArg, strArg } from '../../php/args.js';
import { parseUrl } from '../../php/array/parse-url.js';

export default defineModifier({
  kind: 'modifier',
  name: 'parse_url',
  summary:
    'The parts of a URL (scheme, host, port, user, pass, path, query, fragment) as an array, or one part when a PHP_URL_* component is given; false for a URL PHP rejects.',
  origin: 'php',
  params: [{ name: 'component', type: 'int', default: -1 }],
  examples: [
    { template: '{$u|parse_url:1}', vars: { u: 'https://example.com:8080/a/b?x=1#top' }, output: 'example.com' },
    {
      template: '{assign var=p value=$u|parse_url}{$p.path}?{$p.query}',
      vars: { u: 'https://example.com/a/b?x=1' },
      output: '/a/b?x=1',
    },
  ],
  run: (input, [component]) =>
    parseUrl(strArg(input, 'parse_url', 1, 'url'), intArg(component, 'parse_url', 2, 'component')),
});

import { defineModifier } from '../types.js';
import { PhpObject } from '../../value/value.js';
import { arrayArg, intArg, strArg } from '../../php/args.js';
import { httpBuildQuery, PHP_QUERY_RFC1738 } from '../../php/array/query.js';

export default defineModifier({
  kind: 'modifier',
  name: 'http_build_query',
  summary: 'A URL-encoded query string from an array (nested arrays as `a[b]=`), as PHP builds it. Use `@`.',
  origin: 'php',
  params: [
    { name: 'numeric_prefix', type: 'string', default: '' },
    { name: 'arg_separator', type: 'string', default: null },
    {
      name: 'encoding_type',
      type: 'int',
      default: PHP_QUERY_RFC1738,
      doc: 'PHP_QUERY_RFC1738 (1, space as +) or PHP_QUERY_RFC3986 (2, space as %20).',
    },
  ],
  examples: [
    {
      template: '{$q|@http_build_query}',
      vars: { q: { q: 'a b', tags: ['x', 'y'] } },
      output: 'q=a+b&tags%5B0%5D=x&tags%5B1%5D=y',
    },
  ],
  run(input, [prefix, separator, encoding]) {
    const fn = 'http_build_query';
    const data = input instanceof PhpObject ? input : arrayArg(input, fn, 1, 'data');
    return httpBuildQuery(
      data,
      strArg(prefix, fn, 2, 'numeric_prefix'),
      separator === null || separator === undefined ? null : strArg(separator, fn, 3, 'arg_separator'),
      intArg(encoding, fn, 4, 'encoding_type'),
    );
  },
});

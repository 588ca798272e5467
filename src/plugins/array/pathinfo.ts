import { defineModifier } from '../types.js';
import { int32Arg, strArg } from '../../php/args.js';
import { pathinfo, PATHINFO_ALL } from '../../php/array/pathinfo.js';

export default defineModifier({
  kind: 'modifier',
  name: 'pathinfo',
  summary: 'dirname, basename, extension and filename of a path as an array, or one of them with a PATHINFO_* flag.',
  origin: 'php',
  params: [{ name: 'flags', type: 'int', default: PATHINFO_ALL }],
  examples: [
    { template: '{$p|pathinfo:4}', vars: { p: '/files/report.tar.gz' }, output: 'gz' },
    {
      template: '{assign var=i value=$p|pathinfo}{$i.dirname}|{$i.filename}',
      vars: { p: '/files/report.pdf' },
      output: '/files|report',
    },
  ],
  run: (input, [flags]) => pathinfo(strArg(input, 'pathinfo', 1, 'path'), int32Arg(flags, 'pathinfo', 2, 'flags')),
});

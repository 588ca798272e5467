/** Source text to the flat node list, with parser failures turned into diagnostics. */
import { parse as peggyParse, SyntaxError as PeggySyntaxError } from './parser.generated.js';
import type { FlatNode } from './ast.js';
import { MAX_EXPR_DEPTH } from './expr-depth.js';
import type { Diagnostic, SourceText } from '../errors.js';
import { isErrorCode } from '../protocol/error-codes.js';

export function parseTemplate(src: SourceText): { nodes: FlatNode[]; diagnostics: Diagnostic[] } {
  // The grammar refuses nesting past maxDepth itself; nestedAt is where its last level began.
  const options: { maxDepth: number; nestedAt?: number } = { maxDepth: MAX_EXPR_DEPTH };
  try {
    return { nodes: peggyParse(src.text, options), diagnostics: [] };
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      // The stack ran out below the bound (a caller already deep in its stack, a small
      // --stack-size): still a nesting error, at the level the parser had reached.
      const at = options.nestedAt ?? 0;
      return { nodes: [], diagnostics: [src.diagnostic('error', 'E_NESTING_TOO_DEEP', 'the template nests expressions too deeply to parse', at, at + 1)] };
    }
    if (!(e instanceof PeggySyntaxError)) throw e;
    const coded = /^\[(E_[A-Z_]+)\] ([\s\S]*)$/.exec(e.message);
    const code = coded && isErrorCode(coded[1]) ? coded[1] : 'E_SYNTAX';
    const message = coded ? coded[2] : describe(e.found);
    return { nodes: [], diagnostics: [src.diagnostic('error', code, message, e.location.start.offset, e.location.end.offset)] };
  }
}

function describe(found: string | null | undefined): string {
  return `syntax error: unexpected ${found === null || found === undefined ? 'the end of the template' : JSON.stringify(found)}`;
}

import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, UsageError } from '../args.js';
import { startServer } from '../../lsp/server.js';
import { includeResolver } from './files.js';
import type { Command } from '../main.js';

export const lspCommand: Command = {
  name: 'lsp',
  summary: 'Language server for editors: errors as you type, completion and hover (LSP over stdin/stdout).',
  usage: [
    'smartcage lsp [--stdio]',
    '',
    '  --stdio   talk LSP over standard input and output: the only way, accepted because clients pass it',
    '',
    "Point an editor's LSP client at `smartcage lsp` for templates; editors/vscode in the repository is a",
    'VS Code extension that does (its README says how to install it). {include file=...} is read from the',
    "template's own folder, as `smartcage check` reads it.",
  ].join('\n'),
  run(argv) {
    const { positionals } = parseArgs(argv, { stdio: { type: 'boolean' } });
    if (positionals.length > 0) throw new UsageError('lsp takes no file');
    startServer(process.stdin, process.stdout, {
      includes: (uri) => (uri.startsWith('file:') ? includeResolver(dirname(fileURLToPath(uri))) : () => undefined),
    });
    // The server ends the process itself, as LSP asks: on the exit notification (status 0 after
    // a shutdown request, else 1) or when its input closes.
    return new Promise<number>(() => {});
  },
};

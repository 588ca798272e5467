/**
 * `smartcage lsp`: a language server over a pair of streams (the command gives it standard input
 * and output). It compiles each open template as it changes and publishes compile()'s errors
 * and warnings, completes tags, attributes and modifiers from the declarations, and shows their
 * summaries on hover. Nothing runs in a sandbox: compiling is pure.
 */
import { createConnection, TextDocuments, TextDocumentSyncKind, type Connection } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fileURLToPath } from 'node:url';
import { compile } from '../compiler/index.js';
import { Language } from './language.js';
import { completionsAt } from './completion.js';
import { hoverAt } from './hover.js';
import { toLspDiagnostics } from './diagnostics.js';

export interface ServerOptions {
  /** What `{include file=...}` in the document at `uri` reads (compile's `templates`); absent: every include is missing. */
  includes?(uri: string): (name: string) => string | undefined;
}

export function startServer(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  options: ServerOptions = {},
): Connection {
  const connection = createConnection(input, output);
  const documents = new TextDocuments(TextDocument);
  const lang = new Language();

  connection.onInitialize(() => ({
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      completionProvider: { triggerCharacters: ['{', '/', '|', '@', ' '] },
      hoverProvider: true,
    },
    serverInfo: { name: 'smartcage' },
  }));

  documents.onDidChangeContent(({ document }) => {
    const name = templateName(document.uri);
    const { diagnostics } = compile(document.getText(), { name, templates: options.includes?.(document.uri) });
    void connection.sendDiagnostics({
      uri: document.uri,
      version: document.version,
      diagnostics: toLspDiagnostics(document, name, diagnostics),
    });
  });
  // A closed document's problems are the editor's no longer.
  documents.onDidClose(({ document }) => void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] }));

  connection.onCompletion(({ textDocument, position }) => {
    const doc = documents.get(textDocument.uri);
    return doc ? completionsAt(doc.getText(), doc.offsetAt(position), lang) : [];
  });
  connection.onHover(({ textDocument, position }) => {
    const doc = documents.get(textDocument.uri);
    return doc ? hoverAt(doc, doc.offsetAt(position), lang) : null;
  });

  documents.listen(connection);
  connection.listen();
  return connection;
}

/** The name diagnostics carry: the file's path, else the URI. */
function templateName(uri: string): string {
  return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
}

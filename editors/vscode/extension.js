// Starts the language server for smartcage templates (errors as you type, completion, hover):
// the command of the setting smartcage.server.command, `npx smartcage lsp` unless set.
const { workspace } = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

exports.activate = async function activate() {
  const [command, ...args] = workspace.getConfiguration('smartcage').get('server.command', ['npx', 'smartcage', 'lsp']);
  if (!command) return;
  // No transport given: the client speaks over the server's standard input and output as they
  // are, without adding a --stdio argument.
  const server = { command, args, options: { shell: process.platform === 'win32' } };
  client = new LanguageClient('smartcage', 'smartcage', server, { documentSelector: [{ language: 'smartcage' }] });
  await client.start();
};

exports.deactivate = function deactivate() {
  return client ? client.stop() : undefined;
};

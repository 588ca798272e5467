/**
 * `smartcage lsp` in a real LSP session: the built command as a child process, an LSP client
 * (vscode-jsonrpc over its standard input and output) that opens, changes and closes
 * documents, asks for completion and hover, and shuts the server down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import {
  CompletionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  type CompletionItem,
  type CompletionList,
  type Diagnostic,
  type MarkupContent,
  type Position,
} from 'vscode-languageserver-protocol';
import { BIN, requireBuild } from '../support/bin.js';

requireBuild();

const dir = mkdtempSync(join(tmpdir(), 'smartcage-lsp-'));
writeFileSync(join(dir, 'header.tpl'), '<h1>{$title}</h1>');
const uri = (name: string) => pathToFileURL(join(dir, name)).href;

let server: ChildProcessWithoutNullStreams;
let client: MessageConnection;
let stderr = '';
/** Diagnostics published per document, in order, and who waits for the next ones. */
const published = new Map<string, Diagnostic[][]>();
const waiting = new Map<string, (d: Diagnostic[]) => void>();

function nextDiagnostics(docUri: string): Promise<Diagnostic[]> {
  const queued = published.get(docUri)?.shift();
  if (queued) return Promise.resolve(queued);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no diagnostics for ${docUri}; server stderr: ${stderr}`)), 20_000);
    waiting.set(docUri, (d) => {
      clearTimeout(timer);
      resolve(d);
    });
  });
}

let version = 1;
async function open(name: string, text: string): Promise<Diagnostic[]> {
  const diagnostics = nextDiagnostics(uri(name));
  await client.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: uri(name), languageId: 'smartcage', version: version++, text },
  });
  return diagnostics;
}

async function completion(name: string, position: Position): Promise<CompletionItem[]> {
  const r = (await client.sendRequest(CompletionRequest.type, { textDocument: { uri: uri(name) }, position })) as
    CompletionItem[] | CompletionList | null;
  return Array.isArray(r) ? r : (r?.items ?? []);
}

beforeAll(async () => {
  server = spawn(process.execPath, [BIN, 'lsp'], { cwd: dir, stdio: 'pipe' });
  server.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  client = createMessageConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
  client.onNotification(PublishDiagnosticsNotification.type, ({ uri: docUri, diagnostics }) => {
    const waiter = waiting.get(docUri);
    if (waiter) {
      waiting.delete(docUri);
      waiter(diagnostics);
    } else published.set(docUri, [...(published.get(docUri) ?? []), diagnostics]);
  });
  client.listen();
  const init = await client.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(dir).href,
    capabilities: {},
    workspaceFolders: null,
  });
  expect(init.capabilities.hoverProvider).toBe(true);
  expect(init.capabilities.completionProvider?.triggerCharacters).toContain('|');
  await client.sendNotification(InitializedNotification.type, {});
});

afterAll(() => {
  client?.dispose();
  if (server && server.exitCode === null) server.kill();
});

describe('smartcage lsp', () => {
  // Japanese text and a character outside the BMP (two UTF-16 code units) before the error on
  // line 0, and CRLF line ends: the range must count UTF-16 code units from 0.
  const broken = '<p>日本語𠀋 {$name|upperr}</p>\r\n{foreach from=$items item=i}\r\n{$i}';

  it("publishes the compiler's diagnostics for an opened document, at the right ranges", async () => {
    const diagnostics = await open('page.tpl', broken);
    const byCode = Object.fromEntries(diagnostics.map((d) => [d.code, d]));
    expect(Object.keys(byCode).sort()).toEqual(['E_UNCLOSED_TAG', 'E_UNKNOWN_MODIFIER']);
    expect(byCode.E_UNKNOWN_MODIFIER).toMatchObject({
      range: { start: { line: 0, character: 15 }, end: { line: 0, character: 22 } },
      severity: 1,
      source: 'smartcage',
      message: 'unknown modifier "upperr"; did you mean "upper"?',
    });
    expect(byCode.E_UNCLOSED_TAG!.range).toEqual({ start: { line: 1, character: 0 }, end: { line: 1, character: 9 } });
  });

  it('completes modifiers after |', async () => {
    await open('mods.tpl', '{$title|}');
    const labels = (await completion('mods.tpl', { line: 0, character: 8 })).map((i) => i.label);
    expect(labels).toContain('truncate');
    expect(labels).toContain('escape');
    expect(labels).toContain('getCountryFromIP');
    expect(labels).not.toContain('foreach');
    expect(labels).not.toContain('assign');
  });

  it('completes tag names after {, the open blocks after {/, and attributes not written yet', async () => {
    await open('tags.tpl', '{foreach from=$a item=x}{read_file path="/files/user/a.txt" }{/}\n{');
    const tags = (await completion('tags.tpl', { line: 1, character: 1 })).map((i) => i.label);
    expect(tags).toEqual(expect.arrayContaining(['foreach', 'if', 'assign', 'read_file', 'api']));
    expect(tags).not.toContain('truncate');
    const attrs = await completion('tags.tpl', { line: 0, character: 60 });
    expect(attrs.map((i) => i.label).sort()).toEqual(['ignore_permission', 'name', 'row', 'type']);
    expect(attrs.find((i) => i.label === 'type')).toMatchObject({ detail: 'txt | csv | jsonl', insertText: 'type=' });
    // {read_file} is a block plugin: the innermost open block comes first.
    expect((await completion('tags.tpl', { line: 0, character: 63 })).map((i) => i.label)).toEqual([
      'read_file',
      'foreach',
    ]);
  });

  it("shows a modifier's and a tag's summary on hover", async () => {
    await open('hover.tpl', '{$t|truncate:10}{read_dir path="/files/user" file_var=f}{$f}{/read_dir}');
    const hover = async (character: number) => {
      const h = await client.sendRequest(HoverRequest.type, {
        textDocument: { uri: uri('hover.tpl') },
        position: { line: 0, character },
      });
      return h ? (h.contents as MarkupContent).value : null;
    };
    const modifier = await hover(6);
    expect(modifier).toContain('|truncate[:length=80]');
    expect(modifier).toContain('Shortens to length bytes');
    const tag = await hover(19);
    expect(tag).toContain('{read_dir');
    expect(tag).toContain('runs on the host, with its `files` capability');
    expect(await hover(2)).toBeNull();
  });

  it("reads includes from the template's folder", async () => {
    const diagnostics = await open('with-include.tpl', '{include file="header.tpl"}{include file="nope.tpl"}');
    expect(diagnostics.map((d) => [d.code, d.range.start.character])).toEqual([['E_INCLUDE_NOT_FOUND', 41]]);
  });

  it('clears the diagnostics when a change fixes the document', async () => {
    const cleared = nextDiagnostics(uri('page.tpl'));
    await client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: uri('page.tpl'), version: version++ },
      contentChanges: [{ text: broken.replace('upperr', 'upper') + '{/foreach}' }],
    });
    expect(await cleared).toEqual([]);
  });

  it('shuts down and exits with status 0', async () => {
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    await client.sendRequest(ShutdownRequest.type);
    await client.sendNotification(ExitNotification.type);
    expect(await exited).toBe(0);
  });
});

/**
 * `smartcage serve [--port N] [--files DIR]`: a small HTTP server on 127.0.0.1 for the
 * JSON-schema form UI.
 *
 * - `GET /`                  list of the sample schemas (src/forms/samples/)
 * - `GET /demo/<name>`       a demo page: `<json-field-form>` inside a `<form>`, the
 *                            'Build UI from JSON schema' checkbox, a submit button
 * - `GET /forms-ui.js`       the browser bundle (dist/forms-ui.js, built by `npm run build`)
 * - `GET /validators/<name>.js`  the sample's validator precompiled by ajv (standalone code):
 *                            the pages' CSP has no 'unsafe-eval', so ajv cannot compile in
 *                            the browser (docs/decisions.md D45)
 * - `POST /api/validate`     `{schema, value}` (schema may name a sample) -> `{errors}` with
 *                            the same createValidator the browser runs; a bad schema is 400
 * - `GET /api/files?path=/files/user/dir/`  the file list of the local folder `--files DIR`
 *                            (default: the current directory's `files/` folder), for the
 *                            default path picker
 * - `GET /files/user/<path>` the file itself (the preview link of a file-manager field)
 *
 * Paths go through parseVirtualPath (no `..`, no dot files, no escapes, ...) and must be under
 * `/files/user`; the resolved real path must stay inside the folder (symlinks are not
 * followed out of it).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, realpathSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { parseArgs, stringOption, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { parseVirtualPath } from '../../host-bridge/files/virtual-path.js';
import { createValidator, FormSchemaError, type JsonSchema } from '../../forms/index.js';
import { samples, refusedSamples } from '../../forms/samples/index.js';
import { standaloneValidatorScript } from '../../forms/standalone.js';
import type { Command } from '../main.js';

export interface FormsServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** The folder behind /files/user/. */
  filesDir?: string;
  /** Where forms-ui.js is read from (default: the package's dist/forms-ui.js). */
  bundlePath?: string;
}

export interface FormsServer {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

const FILES_ROOT = '/files/user';
const MAX_BODY = 2 * 1024 * 1024;

function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.json': 'application/json',
};

/**
 * The pages' Content-Security-Policy (docs/decisions.md D45): scripts only from this origin and no
 * 'unsafe-eval' (validators come precompiled from /validators/), no inline script. Styles may
 * be inline: the element adds its default `<style>` and sizes the rich-text editor.
 */
export const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', ...extra });
  res.end(body);
}

const sendJson = (res: ServerResponse, status: number, body: unknown) => send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));

function page(title: string, body: string, scripts: string[] = []): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>body{font:14px/1.5 system-ui,sans-serif;max-width:52em;margin:24px auto;padding:0 16px}
.demo-options{margin:0 0 16px;padding:8px;background:#eee}pre{white-space:pre-wrap}</style>
${scripts.map((s) => `<script src="${esc(s)}" defer></script>\n`).join('')}<script src="/forms-ui.js" defer></script></head>
<body><main>${body}</main></body></html>`;
}

function listPage(): string {
  const items = Object.keys(samples)
    .map((name) => `<li><a href="/demo/${esc(name)}">${esc(samples[name]!.title ?? name)}</a> (${esc(name)})${refusedSamples.includes(name) ? ' - refused by the form UI on purpose' : ''}</li>`)
    .join('\n');
  return page('smartcage forms: samples', `<h1>JSON-schema form samples</h1><ul>${items}</ul>`);
}

function demoPage(name: string, schema: JsonSchema, lang: string): string {
  const title = schema.title ?? name;
  return page(
    `${title} - smartcage forms`,
    `<h1>${esc(title)}</h1>
<p><a href="/">All samples</a> · <a href="/demo/${esc(name)}?lang=${lang === 'ja' ? 'en' : 'ja'}">${lang === 'ja' ? 'English' : '日本語'}</a></p>
<form data-smartcage-demo method="post" action="#" lang="${lang === 'ja' ? 'ja' : 'en'}">
  <div class="demo-options"><label><input type="checkbox" id="build-ui" checked> Build UI from JSON schema</label></div>
  <json-field-form name="ext_col" schema="${esc(JSON.stringify(schema))}"></json-field-form>
  <p><button type="submit" id="save">Save</button></p>
</form>
<h2>Submitted JSON</h2><pre id="submitted"></pre><p id="server-result" role="status"></p>`,
    [`/validators/${encodeURIComponent(name)}.js`],
  );
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) throw new Error('body too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The validation endpoint's work, also used by the tests: schema (or sample name) + value -> errors. */
export function validatePayload(payload: unknown): { status: number; body: unknown } {
  if (payload === null || typeof payload !== 'object' || !('schema' in payload)) {
    return { status: 400, body: { error: { code: 'bad-request', message: 'expected {"schema": ..., "value": ...}' } } };
  }
  const p = payload as { schema: unknown; value?: unknown };
  const schema = typeof p.schema === 'string' ? samples[p.schema] : p.schema;
  if (schema === undefined) return { status: 404, body: { error: { code: 'unknown-sample', message: `no sample schema "${String(p.schema)}"` } } };
  try {
    const v = createValidator(schema);
    return { status: 200, body: { errors: v.validate(p.value ?? null) } };
  } catch (e) {
    if (e instanceof FormSchemaError) return { status: 400, body: { error: { code: e.code, message: e.localized, issues: e.issues } } };
    throw e;
  }
}

/** A virtual path under /files/user to a real path inside `base`, or undefined when it is not allowed. */
function resolveUserPath(base: string, virtual: string): { real: string; text: string } | undefined {
  let vp;
  try {
    vp = parseVirtualPath(virtual);
  } catch {
    return undefined;
  }
  if (vp.root !== FILES_ROOT) return undefined;
  const real = resolve(base, ...vp.segments);
  if (real !== base && !real.startsWith(base + sep)) return undefined;
  if (existsSync(real)) {
    const canon = realpathSync(real);
    if (canon !== base && !canon.startsWith(base + sep)) return undefined;
  }
  return { real, text: vp.text };
}

async function listFiles(base: string, virtual: string): Promise<{ status: number; body: unknown }> {
  const r = resolveUserPath(base, virtual);
  if (!r) return { status: 400, body: { error: `path not allowed: only ${FILES_ROOT}/ and below` } };
  let entries;
  try {
    entries = await readdir(r.real, { withFileTypes: true });
  } catch {
    return { status: 404, body: { error: 'no such folder' } };
  }
  const out = [];
  for (const e of entries) {
    if (e.name.startsWith('.') || !(e.isFile() || e.isDirectory())) continue;
    const child = resolveUserPath(base, `${r.text}/${e.name}`);
    if (!child) continue; // names a virtual path may not carry
    out.push({ name: e.name, path: child.text + (e.isDirectory() ? '/' : ''), type: e.isDirectory() ? 'dir' : 'file' });
  }
  out.sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'dir' ? -1 : 1));
  return { status: 200, body: { path: r.text + '/', entries: out } };
}

export async function startFormsServer(opts: FormsServerOptions = {}): Promise<FormsServer> {
  const root = packageRoot();
  const bundlePath = opts.bundlePath ?? join(root, 'dist', 'forms-ui.js');
  const filesDir = realpathSync(resolve(opts.filesDir ?? 'files'));
  const validatorScripts = new Map<string, string>();
  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: e instanceof Error ? e.message : String(e) });
      else res.end();
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (req.method === 'POST' && path === '/api/validate') {
      let payload: unknown;
      try {
        payload = JSON.parse(await readBody(req));
      } catch {
        return sendJson(res, 400, { error: { code: 'bad-json', message: 'the request body is not JSON' } });
      }
      const r = validatePayload(payload);
      return sendJson(res, r.status, r.body);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'method not allowed', { allow: 'GET, HEAD, POST' });
    if (path === '/') return send(res, 200, 'text/html; charset=utf-8', listPage(), { 'content-security-policy': CSP });
    if (path.startsWith('/demo/')) {
      const name = decodeURIComponent(path.slice(6));
      const schema = Object.hasOwn(samples, name) ? samples[name] : undefined;
      if (!schema) return send(res, 404, 'text/plain; charset=utf-8', 'no such sample');
      return send(res, 200, 'text/html; charset=utf-8', demoPage(name, schema, url.searchParams.get('lang') ?? 'en'), { 'content-security-policy': CSP });
    }
    if (path.startsWith('/validators/') && path.endsWith('.js')) {
      const name = decodeURIComponent(path.slice(12, -3));
      const schema = Object.hasOwn(samples, name) ? samples[name] : undefined;
      if (!schema) return send(res, 404, 'text/plain; charset=utf-8', 'no such sample');
      let script = validatorScripts.get(name);
      if (script === undefined) {
        try {
          script = standaloneValidatorScript(schema);
        } catch (e) {
          if (!(e instanceof FormSchemaError)) throw e;
          script = `/* no validator: ${e.localized.en.replace(/\*\//g, '* /')} */\n`;
        }
        validatorScripts.set(name, script);
      }
      return send(res, 200, 'text/javascript; charset=utf-8', script);
    }
    if (path === '/forms-ui.js' || path === '/forms-ui.js.map') {
      const file = path === '/forms-ui.js' ? bundlePath : bundlePath + '.map';
      if (!existsSync(file)) return send(res, 503, 'text/plain', 'dist/forms-ui.js is missing: run npm run build (or node scripts/build-forms-ui.mjs)');
      return send(res, 200, path.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'application/json', await readFile(file));
    }
    if (path === '/api/files') {
      const r = await listFiles(filesDir, url.searchParams.get('path') ?? `${FILES_ROOT}/`);
      return sendJson(res, r.status, r.body);
    }
    if (path.startsWith(`${FILES_ROOT}/`)) {
      let virtual: string;
      try {
        virtual = decodeURIComponent(path);
      } catch {
        return send(res, 400, 'text/plain', 'bad path');
      }
      const r = resolveUserPath(filesDir, virtual);
      if (!r) return send(res, 400, 'text/plain', 'path not allowed');
      const st = await stat(r.real).catch(() => undefined);
      if (!st?.isFile()) return send(res, 404, 'text/plain', 'no such file');
      const type = TYPES[extname(r.real).toLowerCase()] ?? 'application/octet-stream';
      const disposition: Record<string, string> = type === 'application/octet-stream' ? { 'content-disposition': 'attachment' } : {};
      return send(res, 200, type, await readFile(r.real), { ...disposition, 'content-security-policy': "default-src 'none'; sandbox" });
    }
    return send(res, 404, 'text/plain', 'not found');
  }
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, '127.0.0.1', () => ok());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the JSON-schema form UI, its demo pages and APIs on 127.0.0.1.',
  usage: [
    'smartcage serve [--port N] [--files DIR]',
    '',
    '  --port N     port on 127.0.0.1 (default 8080; 0 picks a free one)',
    '  --files DIR  folder served as /files/user/ for the file picker (default ./files)',
    '',
    'Pages: / (samples), /demo/NAME (sent with a Content-Security-Policy without',
    "'unsafe-eval': validators come precompiled from /validators/NAME.js);",
    'APIs: POST /api/validate, GET /api/files?path=/files/user/',
    'The browser bundle dist/forms-ui.js is made by `npm run build`.',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, { port: { type: 'string' }, files: { type: 'string' } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const portFlag = stringOption(values, 'port');
    const port = portFlag === undefined ? 8080 : Number(portFlag);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port needs an integer from 0 to 65535');
    const filesFlag = stringOption(values, 'files');
    const dir = resolve(filesFlag ?? 'files');
    if (!existsSync(dir)) {
      process.stderr.write(`smartcage serve: folder ${dir} does not exist\n`);
      return EXIT.IO;
    }
    const bundle = join(packageRoot(), 'dist', 'forms-ui.js');
    if (!existsSync(bundle)) process.stderr.write('smartcage serve: dist/forms-ui.js is missing; run `npm run build` (or `node scripts/build-forms-ui.mjs`)\n');
    const s = await startFormsServer({ port, filesDir: dir });
    process.stdout.write(`smartcage serve: ${s.url}/ (files: ${dir}); Ctrl-C stops\n`);
    await new Promise<void>((done) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        void s.close().then(done);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return EXIT.OK;
  },
};

/**
 * The HTTP app of `smartcage serve` (Node code: not part of the browser bundle), on 127.0.0.1:
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
 * - `GET /api/files?path=/files/user/dir/`  the file list of a folder of /files/user, for the
 *                            default path picker
 * - `GET /files/user/<path>` the file itself (the preview link of a file-manager field)
 *
 * The files come from the storage folder through TenantFiles (./user-files.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { createValidator, FormSchemaError } from '../../forms/index.js';
import { samples } from '../../forms/samples/index.js';
import { standaloneValidatorScript } from '../../forms/standalone.js';
import { CSP, demoPage, listPage } from './pages.js';
import { FILES_ROOT, UserFiles } from './user-files.js';

export interface FormsServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** The site's file storage, holding one folder per root: its `user/` is /files/user/ (default ./files). */
  storageDir?: string;
  /** Where forms-ui.js is read from (default: formsBundlePath()). */
  bundlePath?: string;
}

export interface FormsServer {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

const MAX_BODY = 2 * 1024 * 1024;

/** The browser bundle of the package this module belongs to: dist/forms-ui.js. */
export function formsBundlePath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', 'forms-ui.js');
    const up = dirname(dir);
    if (up === dir) return join(process.cwd(), 'dist', 'forms-ui.js');
    dir = up;
  }
}

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

function send(res: ServerResponse, status: number, type: string, body: string | Uint8Array, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', ...extra });
  res.end(body);
}

const sendJson = (res: ServerResponse, status: number, body: unknown) => send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));

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

/** The validation endpoint's work: schema (or sample name) + value -> errors. */
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

export async function startFormsServer(opts: FormsServerOptions = {}): Promise<FormsServer> {
  const bundlePath = opts.bundlePath ?? formsBundlePath();
  const files = new UserFiles(realpathSync(resolve(opts.storageDir ?? 'files')));
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
      const r = await files.list(url.searchParams.get('path') ?? `${FILES_ROOT}/`);
      return sendJson(res, r.status, r.body);
    }
    if (path.startsWith(`${FILES_ROOT}/`)) {
      let virtual: string;
      try {
        virtual = decodeURIComponent(path);
      } catch {
        return send(res, 400, 'text/plain', 'bad path');
      }
      const r = await files.read(virtual);
      if (!r.ok) return send(res, r.status, 'text/plain', r.text);
      const type = TYPES[extname(r.name).toLowerCase()] ?? 'application/octet-stream';
      const disposition: Record<string, string> = type === 'application/octet-stream' ? { 'content-disposition': 'attachment' } : {};
      return send(res, 200, type, r.data, { ...disposition, 'content-security-policy': "default-src 'none'; sandbox" });
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

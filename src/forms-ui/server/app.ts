/**
 * The HTTP app of `smartcage serve` (Node code: not part of the browser bundle), on 127.0.0.1:
 *
 * - `GET /`                  list of the schemas: the user's own (`--schema`) and the samples
 *                            (src/forms/samples/); `?lang=ja` on any page: Japanese page text
 * - `GET /demo/<name>`       a demo page: `<json-field-form>` inside a `<form>`, the
 *                            'Build UI from JSON schema' checkbox, a submit button
 * - `GET /paste`, `POST /paste`  the paste box: a pasted schema (form post, size-capped) is
 *                            checked and precompiled like a sample, then shown as /demo/paste-<hash>
 * - `GET /forms-ui.js`       the browser bundle (dist/forms-ui.js, built by `npm run build`)
 * - `GET /validators/<name>.js`  the schema's validator precompiled by ajv (standalone code):
 *                            the pages' CSP has no 'unsafe-eval', so ajv cannot compile in
 *                            the browser (docs/decisions.md D45)
 * - `POST /api/validate`     `{schema, value}` (schema may name a sample) -> `{errors}` with
 *                            the same createValidator the browser runs; a bad schema is 400
 * - `GET /api/files?path=/files/user/dir/`  the file list of a folder of /files/user, for the
 *                            default path picker
 * - `GET /files/user/<path>` the file itself (the preview link of a file-manager field)
 *
 * The files come from the storage folder through TenantFiles (./user-files.ts), or from the store
 * the caller passes with each request (`serve --site`: the site's, folder or bucket); without
 * either, /files/user/ is an empty folder. A file is streamed, never held whole.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { existsSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createValidator, FormSchemaError } from '../../forms/index.js';
import { refusedSamples, samples } from '../../forms/samples/index.js';
import { standaloneValidatorScript } from '../../forms/standalone.js';
import { demoText } from '../demo-text.js';
import { langOf } from '../ui-text.js';
import { checkPageSchema } from './page-schema.js';
import { demoPage, listPage, pastePage, type PageSchema } from './pages.js';
import { FILES_ROOT, UserFiles } from './user-files.js';
import type { FileStream } from '../../host-adapters/files/file-store.js';
import { BodyTooLarge, readBody, readBytesOrRefuse } from '../../http/body.js';
import { FILE_CSP } from '../../http/csp.js';
import { guarded, type Handler } from '../../http/handler.js';
import { isJsonObject, parseJson } from '../../http/json.js';
import { boundPort } from '../../http/port.js';
import { send, sendJson, sendPage, sendText, seeOther } from '../../http/send.js';

export interface FormsServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** The site's file storage, holding one folder per root: its `user/` is /files/user/ (none: no files). */
  storageDir?: string;
  /** The user's own schemas, listed first, each with a demo page (checked by the caller: checkPageSchema). */
  schemas?: readonly PageSchema[];
  /** Where forms-ui.js is read from (default: formsBundlePath()). */
  bundlePath?: string;
}

export interface FormsServer {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

/** A pasted schema: larger ones are refused before they are parsed. */
const MAX_PASTE = 256 * 1024;
/** Pasted schemas kept (the oldest goes first): each holds its compiled validator in memory. */
const MAX_PASTED = 64;

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

/** A URL path segment decoded; a malformed escape (`%E0`) is "", which names nothing. */
function decodedOrEmpty(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

/** The validation endpoint's work: schema (or sample name) + value -> errors. */
function validatePayload(payload: unknown): { status: number; body: unknown } {
  if (!isJsonObject(payload) || !('schema' in payload)) {
    return { status: 400, body: { error: { code: 'bad-request', message: 'expected {"schema": ..., "value": ...}' } } };
  }
  const p = payload;
  const schema = typeof p.schema === 'string' ? samples[p.schema] : p.schema;
  if (schema === undefined)
    return {
      status: 404,
      body: { error: { code: 'unknown-sample', message: `no sample schema "${String(p.schema)}"` } },
    };
  try {
    const v = createValidator(schema);
    return { status: 200, body: { errors: v.validate(p.value ?? null) } };
  } catch (e) {
    if (e instanceof FormSchemaError)
      return { status: 400, body: { error: { code: e.code, message: e.localized, issues: e.issues } } };
    throw e;
  }
}

export async function startFormsServer(opts: FormsServerOptions = {}): Promise<FormsServer> {
  return listenOnLoopback(createFormsApp(opts), opts.port ?? 0);
}

/** The forms app's handler; `files`, where given, is /files/user/ for this request (a site's store). */
export type FormsHandler = (req: IncomingMessage, res: ServerResponse, files?: UserFiles) => Promise<void>;

/** Sends an opened file, chunk by chunk as the client takes them; a failure after the headers cuts the response. */
async function sendFile(res: ServerResponse, file: FileStream, headers: Record<string, string>): Promise<void> {
  res.writeHead(200, {
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'content-length': String(file.size),
    ...headers,
  });
  try {
    await pipeline(Readable.from(file.chunks, { objectMode: false }), res);
  } catch {
    // The client went away, or the store failed mid-file: the response is cut, not completed.
    res.destroy();
  } finally {
    await file.close();
  }
}

/**
 * The app's routes as a request handler, for a server of the caller's (`smartcage serve --site`
 * mounts one per site, over the site's storage).
 */
export function createFormsApp(opts: Omit<FormsServerOptions, 'port'> = {}): FormsHandler {
  const bundlePath = opts.bundlePath ?? formsBundlePath();
  const folderFiles = UserFiles.inFolder(
    opts.storageDir === undefined ? undefined : realpathSync(resolve(opts.storageDir)),
  );
  const validatorScripts = new Map<string, string>();
  const own = opts.schemas ?? [];
  const sampleList: PageSchema[] = Object.keys(samples).map((name) => ({
    name,
    schema: samples[name]!,
    refused: refusedSamples.includes(name),
  }));
  const pasted = new Map<string, PageSchema>();
  /** The schema of /demo/NAME and /validators/NAME.js: the user's own first, then pasted ones, then the samples. */
  const schemaNamed = (name: string): PageSchema | undefined =>
    own.find((s) => s.name === name) ??
    pasted.get(name) ??
    (Object.hasOwn(samples, name) ? sampleList.find((s) => s.name === name) : undefined);

  /** `POST /paste`: a form post (`schema`, `lang`) -> 303 to the schema's demo page, or the paste box again with the problems. */
  async function paste(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBytesOrRefuse(req, res, MAX_PASTE, () => {
      const lang = langOf(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('lang'));
      sendPage(res, 413, pastePage(lang, '', [demoText(lang).pasteTooLarge(MAX_PASTE / 1024)]));
    });
    if (body === undefined) return;
    const form = new URLSearchParams(body.toString('utf8'));
    const lang = langOf(form.get('lang'));
    const text = form.get('schema') ?? '';
    const again = (problems: string[]) => sendPage(res, 400, pastePage(lang, text, problems));
    let schema: unknown;
    try {
      schema = JSON.parse(text);
    } catch (e) {
      return again([demoText(lang).pasteNotJson(e instanceof Error ? e.message : String(e))]);
    }
    const checked = checkPageSchema(schema, lang);
    if (!checked.ok) return again([demoText(lang).pasteRefused, ...checked.problems]);
    const name = `paste-${createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 12)}`;
    if (!pasted.has(name)) {
      if (pasted.size >= MAX_PASTED) {
        const oldest = pasted.keys().next().value!;
        pasted.delete(oldest);
        validatorScripts.delete(oldest);
      }
      pasted.set(name, { name, schema: checked.schema, pasted: true });
    }
    validatorScripts.set(name, checked.script);
    seeOther(res, `/demo/${name}${lang === 'ja' ? '?lang=ja' : ''}`);
  }
  return async function handle(req: IncomingMessage, res: ServerResponse, given?: UserFiles): Promise<void> {
    const files = given ?? folderFiles;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (req.method === 'POST' && path === '/api/validate') {
      let parsed: ReturnType<typeof parseJson>;
      try {
        parsed = parseJson(await readBody(req));
      } catch (e) {
        if (!(e instanceof BodyTooLarge)) throw e;
        parsed = { ok: false, message: e.message };
      }
      if (!parsed.ok)
        return sendJson(res, 400, { error: { code: 'bad-json', message: 'the request body is not JSON' } });
      const r = validatePayload(parsed.value);
      return sendJson(res, r.status, r.body);
    }
    if (req.method === 'POST' && path === '/paste') return paste(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendText(res, 405, 'method not allowed', { allow: 'GET, HEAD, POST' });
    const lang = langOf(url.searchParams.get('lang'));
    if (path === '/') return sendPage(res, 200, listPage(lang, sampleList, own));
    if (path === '/paste') return sendPage(res, 200, pastePage(lang));
    if (path.startsWith('/demo/')) {
      const s = schemaNamed(decodedOrEmpty(path.slice(6)));
      if (!s) return sendText(res, 404, 'no such schema');
      return sendPage(res, 200, demoPage(s, lang));
    }
    if (path.startsWith('/validators/') && path.endsWith('.js')) {
      const name = decodedOrEmpty(path.slice(12, -3));
      const schema = schemaNamed(name)?.schema;
      if (!schema) return sendText(res, 404, 'no such schema');
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
      if (!existsSync(file))
        return sendText(
          res,
          503,
          'dist/forms-ui.js is missing: run npm run build (or node scripts/build-forms-ui.mjs)',
        );
      return send(
        res,
        200,
        path.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'application/json',
        await readFile(file),
      );
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
        return sendText(res, 400, 'bad path');
      }
      const r = await files.read(virtual);
      if (!r.ok) return sendText(res, r.status, r.text);
      const type = TYPES[extname(r.name).toLowerCase()] ?? 'application/octet-stream';
      const disposition: Record<string, string> =
        type === 'application/octet-stream' ? { 'content-disposition': 'attachment' } : {};
      if (req.method === 'HEAD') {
        await r.file.close();
        return send(res, 200, type, '', {
          ...disposition,
          'content-length': String(r.file.size),
          'content-security-policy': FILE_CSP,
        });
      }
      return sendFile(res, r.file, {
        'content-type': type,
        ...disposition,
        'content-security-policy': FILE_CSP,
      });
    }
    return sendText(res, 404, 'not found');
  };
}

/** `handle` served on 127.0.0.1:`port` (0: a free one); a handler that throws answers 500. */
async function listenOnLoopback(handle: Handler, wanted: number): Promise<FormsServer> {
  const server = createServer(guarded(handle));
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(wanted, '127.0.0.1', () => ok());
  });
  const port = boundPort(server);
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

/**
 * The HTTP app of `smartcage serve --site DIR` and `--sites DIR` (on --host, default 127.0.0.1). Each site answers
 * below where it is served (`/` for --site; `/sites/<key>/` and the root of `<key>.localhost` for
 * --sites, each site its own tenant):
 *
 * - `rcms-api/<api_id>/<path>`   its API: the endpoint's custom function in the sandbox, with
 *                                the request's query, body, session and cookies (src/site/api/serve-api.ts)
 * - `ext/...`                    the form editor of its JSON-type extended columns (ext-fields.ts)
 * - `preview/...`                the live preview of its templates/ pages (preview.ts)
 * - `` (the site's root)         an index: its endpoints and JSON fields
 * - anything else                the forms app of src/forms-ui/server over the site's store (its
 *                                files/ folder or its bucket, as site.json `storage` says):
 *                                (`api/files`, `files/user/...`, and at a root also `demo/`, `paste`)
 *
 * At the server's root: `/forms/` is the forms app's list of schemas, `/playground` the
 * template playground (playground.ts); with --sites `/` lists the sites, and the rest is the forms
 * app without storage (its demo pages and its bundle).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createFormsApp, type FormsHandler } from '../../forms-ui/server/app.js';
import { page, type PageSchema } from '../../forms-ui/server/pages.js';
import { UserFiles } from '../../forms-ui/server/user-files.js';
import { readBytesOrRefuse } from '../../http/body.js';
import { esc } from '../../http/html.js';
import { send, sendJson, sendPage, sendText } from '../../http/send.js';
import type { HostAdapters } from '../../index.js';
import type { Site } from '../open-site.js';
import { serveApi } from '../api/serve-api.js';
import { endpointPath } from '../api/endpoints.js';
import { jsonFields } from '../json-fields.js';
import { ExtFieldEditor } from './ext-fields.js';
import { listen, type ListenOptions, type ServeServer } from '../server/listen.js';
import { Readiness } from '../server/readiness.js';
import { remoteAddressOf } from '../server/reroute.js';
import type { Used } from '../registry.js';
import { annotateRequest } from '../server/access-log.js';
import type { ServerObserver } from '../server/observer.js';
import { SitePreview, type ShowError } from './preview.js';
import { Playground, PLAYGROUND_PATH } from './playground.js';
import { LOOP_SCRIPT, LOOP_SCRIPT_PATH } from './loop-script.js';
import { INDEX_TEXT, langSuffix, otherLanguageLink } from './index-text.js';
import { langOf, type Lang } from '../../forms-ui/ui-text.js';

/**
 * The sites a server answers for: open ones (tests, an embedder), or a SiteRegistry that opens
 * each at first use, closes it when idle and keeps each site to its share (src/site/registry.ts).
 */
interface SiteSource {
  keys(): string[];
  has(key: string): boolean;
  /** The site's folder, known without opening it. */
  dirOf(key: string): string;
  use<T>(key: string, fn: (site: Site) => Promise<T>): Promise<Used<T>>;
  /** The sites open now: /readyz checks their backends. */
  openedSites(): Site[];
}

export interface SiteServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  sites: readonly Site[] | SiteSource;
  /** `single`: the one site at the root; `multi`: every site at /sites/<key>/ and at <key>.localhost. */
  mode: 'single' | 'multi';
  /** --schema files, listed by the forms app. */
  schemas?: readonly PageSchema[];
  /** The access log, the request ids and /metrics (src/site/server/observer.ts); none without. */
  observer?: ServerObserver;
  /** What a /playground template's privileged plugins may reach; default: none of it. */
  playgroundHost?: HostAdapters;
  /** How the preview shows a template error; default: TemplateError.format(). */
  showError?: ShowError;
  /** Connections a primary hands over instead of a socket of its own (src/site/server/listen.ts). */
  connections?: ListenOptions['connections'];
  /** With `connections`: requests for a site another process owns go to it (src/site/server/reroute.ts). */
  reroute?: ListenOptions['reroute'];
}

/** An API request body past this is refused (413) before it is parsed. */
const MAX_API_BODY = 1024 * 1024;

/** Array.isArray does not narrow a readonly array (TypeScript #17002): this guard does. */
const isSiteList = (sites: readonly Site[] | SiteSource): sites is readonly Site[] => Array.isArray(sites);

/** Sites opened already: always there, no share to keep. */
function openSites(sites: readonly Site[]): SiteSource {
  const byKey = new Map(sites.map((s) => [s.tenant, s]));
  return {
    keys: () => [...byKey.keys()],
    has: (key) => byKey.has(key),
    dirOf: (key) => byKey.get(key)!.dir,
    use: async (key, fn) => ({ ok: true, value: await fn(byKey.get(key)!) }),
    openedSites: () => sites.slice(),
  };
}

/**
 * What the server keeps per site: its forms app (made on first use) and, per open handle, its
 * field editors and its /files/user/ (the handle's own store: a site reopened by the registry
 * reads through its new one).
 */
class MountedSite {
  private formsApp: FormsHandler | undefined;
  readonly preview: SitePreview;
  private readonly editors = new WeakMap<Site, Map<string, ExtFieldEditor>>();
  private readonly userFiles = new WeakMap<Site, UserFiles>();

  constructor(
    dir: string,
    private readonly schemas: readonly PageSchema[],
    showError: ShowError | undefined,
  ) {
    this.preview = new SitePreview(dir, showError);
  }

  get forms(): FormsHandler {
    return (this.formsApp ??= createFormsApp({ schemas: this.schemas }));
  }

  files(site: Site): UserFiles {
    let f = this.userFiles.get(site);
    if (!f) this.userFiles.set(site, (f = new UserFiles(site.host.files)));
    return f;
  }

  editor(site: Site, base: string): ExtFieldEditor {
    let bySite = this.editors.get(site);
    if (!bySite) this.editors.set(site, (bySite = new Map()));
    let e = bySite.get(base);
    if (!e) bySite.set(base, (e = new ExtFieldEditor(site, base)));
    return e;
  }
}

export async function startSiteServer(opts: SiteServerOptions): Promise<ServeServer> {
  const schemas = opts.schemas ?? [];
  const source = isSiteList(opts.sites) ? openSites(opts.sites) : opts.sites;
  const mountedSites = new Map<string, MountedSite>();
  const mounted = (key: string): MountedSite => {
    let m = mountedSites.get(key);
    if (!m) mountedSites.set(key, (m = new MountedSite(source.dirOf(key), schemas, opts.showError)));
    return m;
  };
  const rootForms = createFormsApp({ schemas });
  let port = 0;

  /** The forms app answering `rest` as its own path (with a site's files, for a site). */
  const forward = (
    forms: FormsHandler,
    req: IncomingMessage,
    res: ServerResponse,
    rest: string,
    url: URL,
    files?: UserFiles,
  ) => {
    req.url = `/${rest}${url.search}`;
    return forms(req, res, files);
  };

  async function api(
    site: Site,
    base: string,
    rest: string,
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
  ): Promise<void> {
    const body = await readBytesOrRefuse(req, res, MAX_API_BODY, () =>
      sendJson(res, 413, {
        errors: [{ code: 'too_large', message: `the body is larger than ${MAX_API_BODY} bytes` }],
      }),
    );
    if (body === undefined) return;
    const headers = new Map<string, string>();
    for (const [k, v] of Object.entries(req.headers)) headers.set(k, Array.isArray(v) ? v.join(', ') : (v ?? ''));
    const r = await serveApi(site, {
      method: req.method ?? 'GET',
      path: `/${rest}`,
      query: url.search.slice(1),
      headers,
      body,
      basePath: base,
      remoteAddress: remoteAddressOf(req),
    });
    const cookies = r.headers.filter(([n]) => n === 'set-cookie').map(([, v]) => v);
    for (const [n, v] of r.headers) if (n !== 'set-cookie') res.setHeader(n, v);
    if (cookies.length > 0) res.setHeader('set-cookie', cookies);
    res.setHeader('x-content-type-options', 'nosniff');
    // Said, not chunked: a HEAD answer (no body) carries the length its GET has (RFC 9110 8.6).
    res.setHeader('content-length', Buffer.byteLength(r.body));
    res.writeHead(r.status);
    res.end(r.body);
  }

  async function siteIndex(site: Site, base: string, res: ServerResponse, lang: Lang): Promise<void> {
    const t = INDEX_TEXT[lang];
    const endpoints = site.config.endpoints.map((e) => {
      const p = `${base}${endpointPath(e).slice(1)}`;
      return `<li>${e.method} <a href="${esc(p)}">${esc(p)}</a> (functions/${esc(e.function)}.tpl)</li>`;
    });
    const fields = (await jsonFields(site)).map(
      (f) =>
        `<li><a href="${esc(`${base}ext/${f.groupId}/${f.slug}/${langSuffix(lang)}`)}">${esc(f.slug)}</a> (${t.group(f.groupId)})</li>`,
    );
    sendPage(
      res,
      200,
      page(
        lang,
        site.tenant,
        `<h1>${esc(site.tenant)}</h1>
<h2>${t.endpoints}</h2><ul>${endpoints.join('')}</ul>
<h2>${t.fields}</h2>${fields.length > 0 ? `<ul>${fields.join('')}</ul>` : `<p>${t.none}</p>`}
<p><a href="${esc(`${base}preview/`)}">${t.preview}</a> · <a href="${PLAYGROUND_PATH}">${t.playground}</a> · <a href="/forms/${langSuffix(lang)}">${t.forms}</a> · ${otherLanguageLink(lang)}</p>`,
      ),
    );
  }

  /** A request of site `key`, run within its share (src/site/registry.ts): refused at once past it. */
  async function siteRoute(
    key: string,
    base: string,
    rest: string,
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
  ): Promise<void> {
    const m = mounted(key);
    annotateRequest({ site: key, endpoint: `/${rest}` });
    const used = await source.use(key, async (site) => {
      if (rest.startsWith('rcms-api/')) return api(site, base, rest, req, res, url);
      if (await m.editor(site, base).handle(req, res, rest, url)) return;
      if (rest.startsWith('preview') && (await m.preview.handle(site, base, rest, req, res, url))) return;
      if (rest === '' && (req.method === 'GET' || req.method === 'HEAD'))
        return siteIndex(site, base, res, langOf(url.searchParams.get('lang')));
      return forward(m.forms, req, res, rest === 'forms/' ? '' : rest, url, m.files(site));
    });
    if (!used.ok) {
      res.setHeader('retry-after', String(used.retryAfterS));
      sendJson(res, used.status, { errors: [{ code: used.code, message: used.message }] });
    }
  }

  function sitesIndex(res: ServerResponse, lang: Lang): void {
    const t = INDEX_TEXT[lang];
    const items = source
      .keys()
      .map(
        (k) =>
          `<li><a href="/sites/${esc(k)}/${langSuffix(lang)}">${esc(k)}</a> (${t.also} <a href="http://${esc(k)}.localhost:${port}/${langSuffix(lang)}">${esc(k)}.localhost:${port}</a>)</li>`,
      );
    sendPage(
      res,
      200,
      page(
        lang,
        t.sites,
        `<h1>${t.sites}</h1><ul>${items.join('')}</ul>\n<p><a href="/forms/${langSuffix(lang)}">${t.forms}</a> · ${otherLanguageLink(lang)}</p>`,
      ),
    );
  }

  const playground = new Playground(opts.playgroundHost ?? {});

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const pathname = url.pathname;
    // The author's loop (preview and playground), the same under every site and mode.
    if (pathname === LOOP_SCRIPT_PATH)
      return send(res, 200, 'text/javascript; charset=utf-8', LOOP_SCRIPT, { 'cache-control': 'no-cache' });
    if (await playground.handle(req, res, url)) return;
    if (opts.mode === 'single') return siteRoute(source.keys()[0]!, '/', pathname.slice(1), req, res, url);
    const host = /^([a-z0-9][a-z0-9_-]{0,62})\.localhost(?::\d+)?$/.exec((req.headers.host ?? '').toLowerCase());
    if (host) {
      if (!source.has(host[1]!)) return sendText(res, 404, `no site ${host[1]} here`);
      return siteRoute(host[1]!, '/', pathname.slice(1), req, res, url);
    }
    const prefixed = /^\/sites\/([^/]+)(\/.*)?$/.exec(pathname);
    if (prefixed) {
      if (!source.has(prefixed[1]!)) return sendText(res, 404, 'no such site here');
      if (prefixed[2] === undefined) {
        res.writeHead(301, { location: `/sites/${prefixed[1]}/` });
        res.end();
        return;
      }
      return siteRoute(prefixed[1]!, `/sites/${prefixed[1]}/`, prefixed[2].slice(1), req, res, url);
    }
    if (pathname === '/' && (req.method === 'GET' || req.method === 'HEAD'))
      return sitesIndex(res, langOf(url.searchParams.get('lang')));
    return forward(rootForms, req, res, pathname === '/forms/' ? '' : pathname.slice(1), url);
  }

  // /readyz checks the backends of the sites open now (src/site/server/readiness.ts).
  const readiness = new Readiness(() => source.openedSites());
  const server = await listen(opts.observer ? opts.observer.wrap(handle) : handle, {
    host: opts.host ?? '127.0.0.1',
    port: opts.port,
    readiness,
    connections: opts.connections,
    reroute: opts.reroute,
  });
  port = server.port;
  // The preview's event streams never end by themselves, and the playground has an engine.
  const closeLoop = () => {
    for (const m of mountedSites.values()) m.preview.close();
    return playground.close();
  };
  return {
    ...server,
    close: async () => {
      const loop = closeLoop();
      await server.close();
      await loop;
    },
    drain: async (timeoutMs) => {
      const loop = closeLoop();
      const drained = await server.drain(timeoutMs);
      await loop;
      return drained;
    },
  };
}

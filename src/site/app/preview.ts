/**
 * The live preview of `smartcage serve --site DIR` (below the site's base, beside `ext/`):
 *
 * - `preview/`                 the site's templates/ pages, each a link
 * - `preview/<template>`       the page: a member and a request (query, POST as JSON) chosen in
 *                              a form, the render in a frame, reloaded when a file changes
 * - `preview-output/<template>` the render itself, on the site as one web request, under a CSP
 *                              `sandbox` (an opaque origin: its scripts reach neither this
 *                              server's pages nor its cookies)
 * - `preview-events`           server-sent events: `change` when the site's templates,
 *                              functions, settings or data change (compared as render --watch does)
 *
 * The render is the site's, in the sandbox with the site's limits, as an API request's is.
 */
import { existsSync, readFileSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { page } from '../../forms-ui/server/pages.js';
import { esc } from '../../http/html.js';
import { isJsonObject, parseJson } from '../../http/json.js';
import { send, sendPage, sendText } from '../../http/send.js';
import { TemplateError, toBytes } from '../../index.js';
import type { Site } from '../open-site.js';
import { renderOnSite } from '../render.js';
import { filesPicture, siteWatchPaths } from '../watched-files.js';

/**
 * The rendered page's policy: its own frame, sandboxed without scripts; styles and images from
 * anywhere (a page's CSS and pictures load as they would), nothing else.
 */
export const PREVIEW_OUTPUT_CSP =
  "sandbox allow-forms allow-popups; default-src 'none'; style-src * 'unsafe-inline'; img-src * data:; font-src *";

/** Where a render's templates are, for naming a template in an error. */
interface TemplateFolders {
  /** The name the main template was rendered under. */
  main: string;
  templates: string;
  functions?: string;
}

/**
 * How a template error is shown: its place and message in the house format. The command that
 * serves decides the paths (`smartcage serve`: relative to where it runs, as `render` shows them).
 */
export type ShowError = (e: TemplateError, folders: TemplateFolders) => string;

/** A change event is sent this long after the last file event (an editor's save is several). */
const DEBOUNCE_MS = 80;

/** The choices of the preview's form, from its query string. */
interface PreviewChoice {
  member: string;
  get: string;
  post: string;
}

function choiceOf(url: URL): PreviewChoice {
  return {
    member: url.searchParams.get('member') ?? '',
    get: url.searchParams.get('get') ?? '',
    post: url.searchParams.get('post') ?? '',
  };
}

function choiceQuery(c: PreviewChoice): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(c)) if (v !== '') q.set(k, v);
  return q.toString();
}

/** Watches one site's files for the preview's event streams; started by the first, stopped after the last. */
class SiteWatch {
  private readonly clients = new Set<ServerResponse>();
  private watchers: FSWatcher[] = [];
  private picture = '';
  private timer: NodeJS.Timeout | undefined;
  /** Renders of the preview running now: what they write (a session, a counter) is no change. */
  private rendering = 0;

  constructor(private readonly dir: string) {}

  subscribe(res: ServerResponse): void {
    if (this.clients.size === 0) this.start();
    this.clients.add(res);
    res.on('close', () => {
      this.clients.delete(res);
      if (this.clients.size === 0) this.stop();
    });
  }

  /** Runs a preview render; the files as they are after it are the picture to compare with. */
  async quietly<T>(fn: () => Promise<T>): Promise<T> {
    this.rendering++;
    try {
      return await fn();
    } finally {
      this.rendering--;
      if (this.clients.size > 0) this.picture = filesPicture(siteWatchPaths(this.dir));
    }
  }

  close(): void {
    for (const res of this.clients) res.end();
    this.clients.clear();
    this.stop();
  }

  private start(): void {
    this.picture = filesPicture(siteWatchPaths(this.dir));
    const onEvent = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.check(), DEBOUNCE_MS);
    };
    for (const p of siteWatchPaths(this.dir)) {
      try {
        const dir = statSync(p).isDirectory();
        const w = watch(dir ? p : path.dirname(p), { recursive: dir }, onEvent);
        w.on('error', () => {});
        this.watchers.push(w);
      } catch {
        // a folder the site does not have (no functions/): nothing there to change
      }
    }
  }

  private check(): void {
    if (this.rendering > 0) {
      this.timer = setTimeout(() => this.check(), DEBOUNCE_MS);
      return;
    }
    const now = filesPicture(siteWatchPaths(this.dir));
    if (now === this.picture) return;
    this.picture = now;
    for (const res of this.clients) res.write(`event: change\ndata: ${JSON.stringify({ at: Date.now() })}\n\n`);
  }

  private stop(): void {
    clearTimeout(this.timer);
    for (const w of this.watchers) w.close();
    this.watchers = [];
  }
}

/** The preview of one site folder. */
export class SitePreview {
  private readonly watch: SiteWatch;
  private readonly templates: string;

  constructor(
    private readonly dir: string,
    private readonly showError: ShowError = (e) => e.format(),
  ) {
    this.watch = new SiteWatch(dir);
    this.templates = path.join(dir, 'templates');
  }

  /** Answers the preview's paths; false for any other. */
  async handle(site: Site, base: string, rest: string, req: IncomingMessage, res: ServerResponse, url: URL) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (rest === 'preview' || rest === 'preview/') {
      this.list(base, res);
      return true;
    }
    if (rest === 'preview-events') {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      // The first bytes: the browser's EventSource is open, and so is the test's reader.
      res.write(': watching\n\n');
      this.watch.subscribe(res);
      return true;
    }
    for (const [prefix, what] of [
      ['preview/', 'page'],
      ['preview-output/', 'output'],
    ] as const) {
      if (!rest.startsWith(prefix)) continue;
      const name = this.templateName(rest.slice(prefix.length));
      if (name === undefined) {
        sendText(res, 404, `no template ${rest.slice(prefix.length)} in templates/`);
        return true;
      }
      if (what === 'page') await this.page(site, base, name, url, res);
      else await this.output(site, name, choiceOf(url), res);
      return true;
    }
    return false;
  }

  /** Ends the event streams (the server stops: they would keep it draining). */
  close(): void {
    this.watch.close();
  }

  /** A template of templates/ named by a URL path, or undefined when there is none (or it leaves the folder). */
  private templateName(encoded: string): string | undefined {
    let name: string;
    try {
      name = decodeURIComponent(encoded);
    } catch {
      return undefined;
    }
    const file = path.resolve(this.templates, name);
    const rel = path.relative(this.templates, file);
    if (name === '' || name.includes('\0') || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    return existsSync(file) && statSync(file).isFile() ? rel.split(path.sep).join('/') : undefined;
  }

  private list(base: string, res: ServerResponse): void {
    let names: string[] = [];
    try {
      names = readdirSync(this.templates, { recursive: true, encoding: 'utf8' })
        .filter((n) => statSync(path.join(this.templates, n)).isFile())
        .map((n) => n.split(path.sep).join('/'))
        .sort();
    } catch {
      // no templates/ folder: an empty list
    }
    const items = names.map(
      (n) =>
        `<li><a href="${esc(`${base}preview/${n.split('/').map(encodeURIComponent).join('/')}`)}">${esc(n)}</a></li>`,
    );
    sendPage(
      res,
      200,
      page(
        'en',
        'Preview',
        `<h1>Preview</h1><p>The pages of templates/, rendered on this site; each reloads when a file of the site changes.</p>
${items.length > 0 ? `<ul>${items.join('')}</ul>` : '<p>templates/ holds no page.</p>'}
<p><a href="${esc(base)}">The site's index</a> · <a href="/playground">Playground</a></p>`,
      ),
    );
  }

  private async page(site: Site, base: string, name: string, url: URL, res: ServerResponse): Promise<void> {
    const c = choiceOf(url);
    const members = await site.db.all<{ member_id: number; name1: string; name2: string }>(
      'SELECT member_id, name1, name2 FROM members WHERE tenant = ? ORDER BY member_id LIMIT 500',
      [site.tenant],
    );
    const options = members
      .map((m) => `<option value="${m.member_id}">${esc(`${m.name1} ${m.name2}`.trim())}</option>`)
      .join('');
    const encoded = name.split('/').map(encodeURIComponent).join('/');
    const output = `${base}preview-output/${encoded}${choiceQuery(c) ? `?${choiceQuery(c)}` : ''}`;
    sendPage(
      res,
      200,
      page(
        'en',
        `Preview: ${name}`,
        `<h1>Preview: ${esc(name)}</h1>
<p><a href="${esc(`${base}preview/`)}">All pages</a> · <a href="/playground">Playground</a></p>
<form method="get" class="preview-request">
  <p><label>Member id <input name="member" id="preview-member" list="preview-members" inputmode="numeric" value="${esc(c.member)}" placeholder="none (a visitor)"></label>
  <datalist id="preview-members">${options}</datalist></p>
  <p><label>Query ($smarty.get) <input name="get" id="preview-get" size="40" value="${esc(c.get)}" placeholder="page=2&amp;q=word"></label></p>
  <p><label>POST body ($smarty.post, a JSON object) <textarea name="post" id="preview-post" rows="2" cols="60" placeholder='{"name": "value"}'>${esc(c.post)}</textarea></label></p>
  <p><button type="submit">Render</button> <span id="preview-status" role="status"></span></p>
</form>
<iframe id="preview-frame" title="The page" sandbox="allow-forms allow-popups" src="${esc(output)}" data-events="${esc(`${base}preview-events`)}" style="width:100%;height:70vh;border:1px solid #888"></iframe>`,
        ['/_loop/loop.js'],
      ),
    );
  }

  private async output(site: Site, name: string, c: PreviewChoice, res: ServerResponse): Promise<void> {
    const fail = (status: number, text: string) =>
      sendText(res, status, text, { 'content-security-policy': PREVIEW_OUTPUT_CSP });
    if (c.member !== '' && !/^[1-9]\d{0,14}$/.test(c.member))
      return fail(400, `the member must be a member id (a positive whole number), not "${c.member}"`);
    let post: Record<string, unknown> | undefined;
    if (c.post.trim() !== '') {
      const parsed = parseJson(c.post);
      if (!parsed.ok) return fail(400, `the POST body is not JSON: ${parsed.message}`);
      if (!isJsonObject(parsed.value)) return fail(400, 'the POST body must be a JSON object');
      post = parsed.value;
    }
    const get = Object.fromEntries(new URLSearchParams(c.get));
    const source = readFileSync(path.join(this.templates, name), 'utf8');
    const folders = {
      main: name,
      templates: path.join(this.dir, 'templates'),
      functions: path.join(this.dir, 'functions'),
    };
    try {
      const r = await this.watch.quietly(() =>
        renderOnSite(site, source, {
          name,
          memberId: c.member === '' ? null : Number(c.member),
          context: 'web',
          request: { get, ...(post ? { post } : {}) },
        }),
      );
      send(res, 200, 'text/html; charset=utf-8', Buffer.from(toBytes(r.output)), {
        'content-security-policy': PREVIEW_OUTPUT_CSP,
      });
    } catch (e) {
      if (!(e instanceof TemplateError)) throw e;
      fail(500, this.showError(e, folders));
    }
  }
}

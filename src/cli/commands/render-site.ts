/**
 * `smartcage render FILE --site DIR`: the render as one request to a local site, with the site's
 * templates, custom functions, settings and adapters (src/site/render.ts). REQUEST.json gives
 * what the request brings; the cookies its response sets go to standard error, so that a render
 * that logs in can hand its session to the next (`"cookies": {"rcms_session": "..."}`).
 */
import { isOneOf, UsageError } from '../args.js';
import { formatShown, type Folders } from '../shown-path.js';
import { diagnosticFor } from '../colour.js';
import { CliFileError, readJsonText } from './files.js';
import type { SiteRequestData } from '../../site/render.js';
import type { RenderIdentity } from '../../host-api/host.js';
import type { SandboxLimits } from '../../sandbox/limits.js';

export const REQUEST_HELP = [
  'REQUEST.json (--request), every key optional:',
  '  {"get": {...}, "post": {...}, "server": {...},   $smarty.get / post / server ($smarty.request: get and post)',
  '   "session": {...},                               further $smarty.session values (member_id is the member\'s)',
  '   "cookies": {"name": "value"}}                   what the browser sent: {cookie} reads rcms_api_local, and',
  '                                                   rcms_session is a session ({login}), whose member the render',
  '                                                   runs for unless --member names one',
  '$smarty.server.REQUEST_METHOD is POST when "post" is given, else GET, unless "server" names it.',
];

const CONTEXTS: readonly RenderIdentity['context'][] = ['web', 'batch', 'admin-test'];
const OBJECT_KEYS = ['get', 'post', 'server', 'session'] as const;

export function contextOption(v: string | undefined): RenderIdentity['context'] | undefined {
  if (v === undefined) return undefined;
  if (!isOneOf(CONTEXTS, v)) throw new UsageError(`--context takes ${CONTEXTS.join(', ')}, not "${v}"`);
  return v;
}

export function memberOption(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^[1-9]\d{0,14}$/.test(v))
    throw new UsageError(`--member needs a member id (a positive whole number), not "${v}"`);
  return Number(v);
}

/** REQUEST.json, checked: a file error names the file and the key that is wrong. */
function readRequestFile(file: string): SiteRequestData {
  const json: unknown = JSON.parse(readJsonText(file));
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(json))
    throw new CliFileError(`${file}: must be a JSON object (${REQUEST_HELP[0]!.replace(/:$/, '')} in --help)`);
  for (const key of Object.keys(json)) {
    if (!isOneOf(OBJECT_KEYS, key) && key !== 'cookies')
      throw new CliFileError(`${file}: unknown key "${key}" (known: ${[...OBJECT_KEYS, 'cookies'].join(', ')})`);
    if (!isObject(json[key])) throw new CliFileError(`${file}: "${key}" must be a JSON object`);
  }
  const cookies: Record<string, string> = {};
  for (const [name, value] of Object.entries(isObject(json.cookies) ? json.cookies : {})) {
    if (typeof value !== 'string') throw new CliFileError(`${file}: the cookie "${name}" must be a string`);
    cookies[name] = value;
  }
  const request: SiteRequestData = {};
  for (const key of OBJECT_KEYS) {
    const v = json[key];
    if (isObject(v)) request[key] = v;
  }
  return 'cookies' in json ? { ...request, cookies } : request;
}

export interface SiteRenderArgs {
  file: string;
  name: string;
  source: string;
  siteDir: string;
  memberId?: number;
  context?: RenderIdentity['context'];
  requestFile?: string;
  vars?: string;
  objects: boolean;
  limits: Partial<SandboxLimits>;
  folders: Folders;
}

/** Renders; returns the output and the lines for standard error (warnings, then Set-Cookie). */
export async function renderWithSite(a: SiteRenderArgs): Promise<{ output: string; notes: string[] }> {
  const request = a.requestFile === undefined ? undefined : readRequestFile(a.requestFile);
  // Loaded here: a render without --site does not pay for the site's database and plugins (D163).
  const [{ openSiteFolder, SiteOpenError }, { renderOnSite }, { setCookieLine }] = await Promise.all([
    import('../site-folder.js'),
    import('../../site/render.js'),
    import('../../site/api/serve-api.js'),
  ]);
  const site = await openSiteFolder(a.siteDir, { engine: { limits: a.limits } }).catch((e: unknown) => {
    // The render command tells a site that cannot be opened as a file error (exit 3).
    throw e instanceof SiteOpenError ? new CliFileError(e.message) : e;
  });
  try {
    if (a.memberId !== undefined && !(await site.host.members!.exists!(a.memberId))) {
      throw new UsageError(`--member ${a.memberId} is not a member of the site ${site.tenant}`);
    }
    const r = await renderOnSite(site, a.source, {
      name: a.name,
      memberId: a.memberId,
      context: a.context,
      request,
      vars: a.vars,
      objects: a.objects,
    });
    // Compile warnings and the render's (W_RUNTIME), each at its line and column, as a render without --site prints them.
    const warnings = r.diagnostics
      .filter((d) => d.severity === 'warning')
      .map((d) => diagnosticFor(process.stderr, formatShown(d, a.folders)));
    const notes = [...warnings, ...[...r.setCookies].map(([n, c]) => `Set-Cookie: ${setCookieLine(n, c, '/')}`)];
    return { output: r.output, notes };
  } finally {
    await site.close();
  }
}

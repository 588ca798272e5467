/**
 * The attacks session's cases on what host plugins do with a template's values
 * (docs/security.md BR-18, BR-19, FS-19..FS-21, FS-23): amounts of time a template asks the host to
 * keep something for, every string a host plugin takes given values made to reach a limit of
 * Node or of the operating system, files an `{api}` request attaches, paths past the
 * filesystem's own limits, moves of a folder into itself, and buckets of another tenant's.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HOST_FAMILIES } from '../../plugins/host-plugins.js';
import type { AttrSpec, FunctionPlugin } from '../../plugins/types.js';
import { harnessTenantRoot } from '../host/files.js';
import { harnessHttp } from '../host/http.js';
import type { HarnessContext, Outcome, RenderAttempt, SecurityCase } from '../types.js';
import { all, fsCase } from './fs.js';
import { allRefused, judge, type Refusal } from './helpers.js';

/**
 * The storage root of a tenant of the case's own. Cases that write use one, so that what they make
 * and remove never moves the quota the harness's main tenant is held to: the adapter counts usage
 * once and then follows its own writes, so a file removed behind its back stays counted.
 */
function tenantRoot(tenant: string): string {
  const r = harnessTenantRoot(tenant);
  if (!r) throw new Error('these cases need the harness files adapter (src/security/host/files.ts)');
  return r;
}

/** Durations and amounts past their bounds: refused, never clamped into a lasting grant. */
const DURATIONS: Refusal[] = [
  { template: '{api_token var=v type="static" api_id=1 expires=99999999999}', codes: ['E_BAD_ATTRIBUTE'] },
  { template: '{api_token var=v type="dynamic" api_id=2 expires=-1}', codes: ['E_BAD_ATTRIBUTE'] },
  { template: '{cookie key="k" value="v" expires=99999999999}', codes: ['E_BAD_ATTRIBUTE'] },
  { template: '{cookie key="k" value="v" expires=-5}', codes: ['E_BAD_ATTRIBUTE'] },
  { template: '{storage_url var=u path="/files/g/x.txt" expire="+99999999999999 years"}', codes: ['E_BAD_ATTRIBUTE'] },
  { template: '{storage_url var=u path="/files/g/x.txt" expire="@-99999999999999"}', codes: ['E_BAD_ATTRIBUTE'] },
  { template: '{storage_url var=u path="/files/g/x.txt" expire="+169 hours"}', codes: ['E_BAD_ATTRIBUTE'] },
  ...['0', '-1', '99999999999', '1e30', '3601'].map((t) => ({
    template: `{api endpoint="https://api.example.com/" timeout=${t}}`,
    codes: ['E_BAD_ATTRIBUTE', 'E_BAD_ATTR'],
  })),
  ...['-5', '1e30'].map((t) => ({
    template: `{api endpoint="https://api.example.com/" cache_time=${t}}`,
    codes: ['E_BAD_ATTRIBUTE', 'E_BAD_ATTR'],
  })),
];

/**
 * Values made to reach a limit below the bridge's own: HKDF's 1024 bytes of info (as 600
 * two-byte characters), a lone surrogate, NUL, 70,000 characters (past 64 KB buffers), numbers
 * Node parses differently from PHP, an Object.prototype name, a dot-dot path, nothing.
 */
const EDGE_VALUES: readonly string[] = [
  '\u00e9'.repeat(600),
  '\ud800x',
  'a\u0000b',
  'x'.repeat(70_000),
  '-1',
  '1e309',
  '__proto__',
  '../../x',
  '',
];

/** The host's answers that mean it threw on its own: a template must never cause them. */
const HOST_THREW = ['E_HOST_FAILED', 'E_UNCAUGHT', 'E_SANDBOX_CRASHED'];

/** A plain value of an attribute's type, for the attributes a call needs besides the one under test. */
function plain(spec: AttrSpec): unknown {
  if (spec.enum) return spec.enum[0];
  if (spec.type === 'varname') return 'v';
  if (spec.type === 'int' || spec.type === 'number') return spec.min ?? 1;
  if (spec.type === 'bool') return true;
  if (spec.type === 'array') return ['a'];
  return 'x';
}

/** One call per host plugin, string-like attribute and edge value; the others plain or absent. */
function edgeCalls(): { template: string; vars: Record<string, unknown> }[] {
  const calls: { template: string; vars: Record<string, unknown> }[] = [];
  for (const plugin of Object.values(HOST_FAMILIES).flat()) {
    if (plugin.kind === 'modifier' || plugin.name === 'sleep') continue;
    const f = plugin as FunctionPlugin;
    for (const [name, spec] of Object.entries(f.attrs)) {
      if (spec.type !== 'string' && spec.type !== 'mixed' && spec.type !== 'array') continue;
      for (const edge of EDGE_VALUES) {
        const vars: Record<string, unknown> = {};
        for (const [n, s] of Object.entries(f.attrs)) {
          if (n === name) vars[n] = spec.type === 'array' ? [edge] : edge;
          else if (s.required || f.requiresOneOf?.[0] === n) vars[n] = plain(s);
        }
        const attrs = Object.keys(vars)
          .map((n) => `${n}=$${n}`)
          .join(' ');
        calls.push({ template: `{${f.name} ${attrs}}${f.kind === 'block' ? `{/${f.name}}` : ''}`, vars });
      }
    }
  }
  return calls;
}

/** Every edge call ends with a coded answer of the plugin, never one that says the host threw. */
async function edgeValues(h: HarnessContext): Promise<Outcome> {
  const identity = { tenant: 'br19' };
  const temp = join(tenantRoot(identity.tenant), 'temp');
  const before = new Set(existsSync(temp) ? readdirSync(temp) : []);
  const calls = edgeCalls();
  let slowest = 0;
  try {
    for (const c of calls) {
      const a = await h.render(c.template, { vars: c.vars, identity });
      slowest = Math.max(slowest, a.ms);
      const o = judge(h, a, !HOST_THREW.includes(a.code ?? ''), 'a coded answer of the plugin');
      if (o.status !== 'contained') {
        const edge = Object.values(c.vars).find((v) => EDGE_VALUES.includes(v as string) || Array.isArray(v));
        return { ...o, detail: `${c.template.slice(0, 80)} with ${JSON.stringify(edge).slice(0, 40)}: ${o.detail}` };
      }
    }
  } finally {
    // The temporary files save_file and write_file made.
    for (const name of existsSync(temp) ? readdirSync(temp) : [])
      if (!before.has(name)) rmSync(join(temp, name), { recursive: true, force: true });
  }
  return {
    status: 'contained',
    detail: `${calls.length} calls of the host plugins with edge values: none made the host throw`,
    figures: { calls: calls.length, slowest_ms: Math.round(slowest) },
  };
}

/** Files an `{api}` request attaches: the temporary area's own files only, a count cap, plain field names. */
async function apiFiles(h: HarnessContext): Promise<Outcome> {
  const s = harnessHttp();
  const seen = s.seen.length;
  const post = '{api endpoint=$u method="POST" files=$f status_var=s}[{$s}]';
  const u = `http://api.example.com:${s.port}/echo`;
  const o = await all(
    h,
    [
      ['../../outside.txt', 'E_PATH_DENIED'],
      ['/etc/passwd', 'E_PATH_DENIED'],
      [{ path: '../user/link-file' }, 'E_PATH_DENIED'],
      ['link-temp/outside.txt', 'E_PATH_DENIED'],
      [{ path: '/files/user/link-victim/private/canary.txt' }, 'E_PATH_DENIED'],
      [{ path: 'x', name: '../../evil\r\nX-Injected: 1' }, 'E_BAD_ATTRIBUTE'],
      [{ path: 'x', name: 'a"; filename="../../x' }, 'E_BAD_ATTRIBUTE'],
    ]
      .map(([f, code]) => ({
        tpl: post,
        vars: { u, f: [f] },
        ok: (a: { code?: string }) => a.code === code,
        what: `${JSON.stringify(f)}: ${String(code)}`,
      }))
      .concat({
        tpl: post,
        vars: { u, f: Array.from({ length: 5000 }, () => 'nofile') },
        ok: (a) => a.code === 'E_SIZE_LIMIT',
        what: '5,000 files: E_SIZE_LIMIT',
      }),
  );
  if (o.status !== 'contained') return o;
  if (s.seen.length !== seen) return { status: 'escaped', detail: 'a refused request reached the server' };
  return { status: 'contained', detail: `${o.detail}: each refused before a request` };
}

/** Paths past the filesystem's limits and over files in the way: coded refusals, no host path quoted. */
async function osLimits(h: HarnessContext): Promise<Outcome> {
  const write = '{write_file path=$p value="x" var=v}{$v}';
  const nested = (n: number, seg: string) => `/files/user/fs20/${Array.from({ length: n }, () => seg).join('/')}/x.txt`;
  const denied = (a: { code?: string }) => a.code === 'E_PATH_DENIED';
  const failed = (a: { code?: string }) => a.code === 'E_FILE_FAILED';
  const identity = { tenant: 'fs20' };
  try {
    return await all(
      h,
      [
        { tpl: write, vars: { p: `/files/user/fs20/${'a'.repeat(300)}.txt` }, ok: denied, what: 'a 300-byte name' },
        {
          tpl: write,
          vars: { p: `/files/user/fs20/${'\u00e9'.repeat(200)}` },
          ok: denied,
          what: 'a 400-byte name of 200 characters',
        },
        { tpl: write, vars: { p: nested(600, 'd') }, ok: denied, what: '600 nested folders' },
        { tpl: write, vars: { p: nested(300, 'd'.repeat(24)) }, ok: denied, what: 'a path past PATH_MAX' },
        {
          tpl: '{write_file path="/files/user/fs20/f.txt" value="x" var=v}{write_file path="/files/user/fs20/f.txt/sub.txt" value="y" var=w}',
          ok: failed,
          what: 'a file in the way of a folder: E_FILE_FAILED',
        },
        {
          tpl: '{write_file path="/files/user/fs20/d/f.txt" value="x" var=v}{write_file path="/files/user/fs20/d" value="y" var=w}',
          ok: failed,
          what: 'writing over a folder: E_FILE_FAILED',
        },
        { tpl: '{write_file path="/files/user/" value="x" var=v}', ok: denied, what: 'the root itself' },
      ],
      { identity },
    );
  } finally {
    rmSync(join(tenantRoot(identity.tenant), 'user', 'fs20'), { recursive: true, force: true });
  }
}

/** A folder moved into itself, onto its parent or its root, a file onto itself: refused or false, the tree intact. */
async function renameLoops(h: HarnessContext): Promise<Outcome> {
  const identity = { tenant: 'fs21' };
  const dir = join(tenantRoot(identity.tenant), 'g', 'fs21');
  const file = join(dir, 'a', 'f.txt');
  const mv = (src: string, dest: string) => `{rename_file src_path="${src}" dest_path="${dest}" status_var=s}[{$s}]`;
  try {
    const made = await h.render('{put_file value="kept" path="/files/g/fs21/a/f.txt"}ok', { identity });
    if (made.output !== 'ok') return judge(h, made, false, 'the folder to move was made');
    const o = await all(
      h,
      [
        { tpl: mv('files/g/fs21/a', 'files/g/fs21/a/b'), ok: (a) => a.output === '[]', what: 'into itself: false' },
        { tpl: mv('files/g/fs21/a', 'files/g/fs21'), ok: (a) => a.output === '[]', what: 'onto its parent: false' },
        {
          tpl: mv('files/g/fs21/a/f.txt', 'files/g/fs21/a/f.txt'),
          ok: (a) => a.output === '[1]',
          what: 'a file onto itself',
        },
        { tpl: mv('files/g/fs21/a', 'files/g'), ok: (a) => a.code === 'E_PATH_DENIED', what: 'onto the root' },
        { tpl: mv('files/g', 'files/g/fs21/g'), ok: (a) => a.code === 'E_PATH_DENIED', what: 'the root itself' },
      ],
      { identity },
    );
    if (o.status !== 'contained') return o;
    const kept = existsSync(file) ? readFileSync(file, 'utf8') : null;
    return kept === 'kept'
      ? { status: 'contained', detail: `${o.detail}; the file is where it was, whole` }
      : { status: 'escaped', detail: `after the moves the file holds ${JSON.stringify(kept)}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A call of each plugin that takes `bucket`, naming another tenant's; the rest of the call valid. */
const BUCKET_CALLS: Record<string, string> = {
  put_file: '{put_file bucket=$b value="v" path="/files/g/x.txt"}',
  remove_file: '{remove_file bucket=$b path="/files/g/x.txt"}',
  get_file: '{get_file bucket=$b path="/files/g/x.txt" var=v}',
  gzip: '{gzip bucket=$b file_url="/files/g/x.txt"}',
  zip: '{zip bucket=$b entries=$e dest="/files/g/x.zip"}',
  unzip: '{unzip bucket=$b src="/files/g/x.zip" dest="/files/g/out"}',
};

/** Every plugin that takes `bucket` refuses a named one; a plugin added with it and not here fails the case. */
async function buckets(h: HarnessContext): Promise<Outcome> {
  const declared = Object.values(HOST_FAMILIES)
    .flat()
    .filter((p) => p.kind !== 'modifier' && Object.hasOwn((p as FunctionPlugin).attrs, 'bucket'))
    .map((p) => p.name);
  const untested = declared.filter((n) => !Object.hasOwn(BUCKET_CALLS, n));
  if (untested.length)
    return { status: 'escaped', detail: `plugins take bucket= and are not attacked here: ${untested.join(', ')}` };
  const names = ['victim', '../victim', 'gs://victim-bucket', 's3://victim', '*'];
  const o = await all(
    h,
    declared.flatMap((n) =>
      names.map((b) => ({
        tpl: BUCKET_CALLS[n]!,
        vars: { b, e: [{ url: '/files/g/x.txt', name: 'x.txt' }] },
        ok: (a: RenderAttempt) => a.code === 'E_PATH_DENIED' && (a.message ?? '').includes(`${n}.bucket`),
        what: `{${n} bucket=${JSON.stringify(b)}}: E_PATH_DENIED on bucket`,
      })),
    ),
  );
  return o.status === 'contained' ? { ...o, detail: `${declared.length} plugins: ${o.detail}` } : o;
}

export const BR_INPUTS: SecurityCase[] = [
  {
    id: 'BR-18',
    category: 'BR',
    title: 'lifetimes a template asks for: token and cookie expiries, signed URLs, timeouts, cache times',
    async run(h) {
      return (
        (await allRefused(h, DURATIONS)) ?? {
          status: 'contained',
          detail: `${DURATIONS.length} forms refused at their bounds`,
        }
      );
    },
  },
  {
    id: 'BR-19',
    category: 'BR',
    title: "every host plugin's string attributes with values that reach a limit of Node or the OS",
    run: edgeValues,
  },
];

export const FS_INPUTS: SecurityCase[] = [
  fsCase('FS-19', 'files an {api} request attaches: paths, links, field names, count', apiFiles),
  fsCase('FS-20', "paths past the filesystem's limits, files and folders in the way", osLimits),
  fsCase('FS-21', 'a folder moved into itself, onto its parent or its root; a file onto itself', renameLoops),
  fsCase('FS-23', "another tenant's storage named as bucket= in every plugin that takes one", buckets),
];

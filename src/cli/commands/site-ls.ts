/**
 * `smartcage site ls DIR [contents|members|tags|files PATH|batches|endpoints] [--json]`: what a
 * local site holds, without writing a template. It only reads: SELECTs on the site's database,
 * the site's own FileStore for files (the rules the file plugins obey), site.json for the rest.
 * Names and subjects are in the site's language, times in its zone (site-time.ts).
 */
import { isOneOf, parseArgs, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { openSiteFolder, SiteOpenError } from '../site-folder.js';
import { siteTime } from '../site-time.js';
import { writeOut } from '../output.js';
import { parseNames } from '../../site/adapters/content.js';
import type { Site } from '../../site/open-site.js';
import { parseVirtualPath } from '../../host-adapters/files/virtual-path.js';
import { FileError } from '../../host-adapters/files/errors.js';
import type { Subcommand } from './site.js';

type Row = Record<string, string | number | boolean | null>;
/** A listing: its rows (the JSON), and the columns the text table shows, in order. */
interface Listing {
  columns: readonly string[];
  rows: Row[];
}

const KINDS = ['contents', 'members', 'tags', 'files', 'batches', 'endpoints'] as const;
type Kind = (typeof KINDS)[number];

/** At most this many files of one folder are listed (the store's own cap on a listing applies too). */
const MAX_FILES = 1000;

function nameIn(site: Site, names: string): string {
  const all = parseNames(names);
  return all[site.config.lang] ?? Object.values(all)[0] ?? '';
}

const LISTINGS: Record<Kind, (site: Site, arg: string | undefined) => Promise<Listing>> = {
  async contents(site) {
    const rows = await site.db.all<{
      id: number;
      group_id: number;
      slug: string | null;
      ymd: string;
      open_flg: number;
      subject: string | null;
    }>(
      `SELECT t.id, t.group_id, t.slug, t.ymd, t.open_flg, x.subject FROM topics t
       LEFT JOIN topic_texts x ON x.tenant = t.tenant AND x.topic_id = t.id AND x.lang = ?
       WHERE t.tenant = ? ORDER BY t.group_id, t.id`,
      [site.config.lang, site.tenant],
    );
    return {
      columns: ['id', 'group', 'ymd', 'open', 'slug', 'subject'],
      rows: rows.map((r) => ({
        id: Number(r.id),
        group: Number(r.group_id),
        ymd: r.ymd,
        open: r.open_flg === 1,
        slug: r.slug,
        subject: r.subject ?? '',
      })),
    };
  },
  async members(site) {
    const rows = await site.db.all<{
      member_id: number;
      name1: string;
      name2: string;
      email: string;
      open_flg: number;
    }>('SELECT member_id, name1, name2, email, open_flg FROM members WHERE tenant = ? ORDER BY member_id', [
      site.tenant,
    ]);
    const groups = await site.db.all<{ member_id: number; group_id: number }>(
      'SELECT member_id, group_id FROM member_group_members WHERE tenant = ? ORDER BY group_id',
      [site.tenant],
    );
    const supers = new Set(site.config.super_users);
    return {
      columns: ['id', 'name', 'email', 'groups', 'super_user'],
      rows: rows.map((r) => ({
        id: Number(r.member_id),
        name: `${r.name1} ${r.name2}`.trim(),
        email: r.email,
        groups: groups
          .filter((g) => Number(g.member_id) === Number(r.member_id))
          .map((g) => Number(g.group_id))
          .join(','),
        super_user: supers.has(Number(r.member_id)),
      })),
    };
  },
  async tags(site) {
    const rows = await site.db.all<{
      tag_id: number;
      tag_category_id: number;
      names: string;
      category: string;
      open_contents_cnt: number;
    }>(
      `SELECT t.tag_id, t.tag_category_id, t.names, c.names AS category, t.open_contents_cnt FROM tags t
       JOIN tag_categories c ON c.tenant = t.tenant AND c.tag_category_id = t.tag_category_id
       WHERE t.tenant = ? ORDER BY t.tag_category_id, t.order_no, t.tag_id`,
      [site.tenant],
    );
    return {
      columns: ['id', 'category_id', 'category', 'name', 'open_contents'],
      rows: rows.map((r) => ({
        id: Number(r.tag_id),
        category_id: Number(r.tag_category_id),
        category: nameIn(site, r.category),
        name: nameIn(site, r.names),
        open_contents: Number(r.open_contents_cnt),
      })),
    };
  },
  async files(site, arg) {
    let folder;
    try {
      folder = parseVirtualPath(arg ?? '/files/user/');
    } catch (e) {
      if (e instanceof FileError)
        throw new UsageError(`${e.message} (a folder of the site's storage, such as /files/user/)`);
      throw e;
    }
    const entries = await site.host.files!.list(folder, { recursive: false, maxDepth: 1 });
    return {
      columns: ['path', 'size', 'modified'],
      rows: entries.slice(0, MAX_FILES).map((e) => ({
        path: e.isDir ? `${e.path}/` : e.path,
        size: e.isDir ? null : e.size,
        modified: siteTime(Math.floor(e.mtime / 1000), site.config.timezone),
      })),
    };
  },
  async batches(site) {
    const last = await site.db.all<{ slug: string; state: string; started: number }>(
      `SELECT r.slug, r.state, r.started FROM batch_runs r
       WHERE r.tenant = ? AND r.started = (SELECT MAX(started) FROM batch_runs s WHERE s.tenant = r.tenant AND s.slug = r.slug)`,
      [site.tenant],
    );
    return {
      columns: ['id', 'slug', 'schedule', 'last_run'],
      rows: site.config.batches.map((b) => {
        const run = last.find((r) => r.slug === b.slug);
        return {
          id: b.id ?? null,
          slug: b.slug,
          schedule: b.schedule ?? null,
          last_run: run ? `${run.state} ${siteTime(Number(run.started), site.config.timezone)}` : null,
        };
      }),
    };
  },
  async endpoints(site) {
    return {
      columns: ['method', 'path', 'function', 'security'],
      rows: site.config.endpoints.map((e) => ({
        method: e.method,
        path: `/rcms-api/${e.api_id}/${e.path}`,
        function: `functions/${e.function}.tpl`,
        security: site.config.apis.find((a) => a.api_id === e.api_id)?.security ?? 'none',
      })),
    };
  },
};

/** The overview: the site's settings and how many of each thing it holds. */
async function overview(site: Site): Promise<Row> {
  const count = async (table: string) =>
    Number(
      (await site.db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table} WHERE tenant = ?`, [site.tenant]))
        ?.n ?? 0,
    );
  return {
    site_key: site.config.site_key,
    timezone: site.config.timezone,
    languages: site.config.languages.join(','),
    database: site.config.database ? 'postgresql' : 'sqlite (data/site.sqlite)',
    contents: await count('topics'),
    members: await count('members'),
    tags: await count('tags'),
    endpoints: site.config.endpoints.length,
    batches: site.config.batches.length,
  };
}

/** Columns a terminal gives the text: East Asian wide and full-width characters take two. */
function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text)
    w += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(ch)
      ? 2
      : 1;
  return w;
}

/** Columns padded to their widest cell; text cells keep no control characters. */
function table(l: Listing): string {
  const cell = (v: Row[string]) =>
    v === null ? '-' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : JSON.stringify(String(v)).slice(1, -1);
  const lines = [l.columns, ...l.rows.map((r) => l.columns.map((c) => cell(r[c] ?? null)))];
  const widths = l.columns.map((_, i) => Math.max(...lines.map((cells) => displayWidth(cells[i]!))));
  const pad = (c: string, i: number) => c + ' '.repeat(widths[i]! - displayWidth(c));
  return (
    lines
      .map((cells) =>
        cells
          .map((c, i) => (i === cells.length - 1 ? c : pad(c, i)))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

export const siteLs: Subcommand = {
  name: 'ls',
  summary: 'List what a site holds: contents, members, tags, files, batches, endpoints.',
  usage: [
    'smartcage site ls DIR [contents|members|tags|files [PATH]|batches|endpoints] [--json]',
    '',
    '  DIR          the site folder; alone, its settings and how many of each thing it holds',
    '  contents     every content: id, group, date, open or closed, slug, subject (site language)',
    '  members      every member: id, name, email, groups, super user',
    '  tags         every tag: id, its category, name, open contents tagged',
    "  files PATH   the files of a folder of the site's storage (default /files/user/)",
    "  batches      the batches of site.json and the state of each one's last run",
    '  endpoints    the API endpoints: method, path, custom function, security',
    '  --json       one JSON value (an object alone, else an array of rows) instead of a table',
    '',
    'It only reads. Exit status: 0 listed; 2 wrong usage; 3 the site cannot be opened, or PATH is not a folder.',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, { json: { type: 'boolean' } });
    const [dir, kindArg, arg, ...extra] = positionals;
    if (dir === undefined) throw new UsageError('site ls takes a site folder');
    if (kindArg !== undefined && !isOneOf(KINDS, kindArg))
      throw new UsageError(`site ls lists ${KINDS.join(', ')}, not "${kindArg}"`);
    const kind: Kind | undefined = kindArg;
    if (extra.length > 0 || (arg !== undefined && kind !== 'files'))
      throw new UsageError(
        kind === 'files'
          ? 'site ls DIR files takes one folder'
          : `site ls DIR ${kind ?? ''} takes nothing more`.replace('  ', ' '),
      );
    let site: Site;
    try {
      site = await openSiteFolder(dir);
    } catch (e) {
      if (!(e instanceof SiteOpenError)) throw e;
      process.stderr.write(`smartcage site ls: ${e.message}\n`);
      return EXIT.IO;
    }
    try {
      let text: string;
      if (kind === undefined) {
        const o = await overview(site);
        text = values.json
          ? `${JSON.stringify(o, null, 2)}\n`
          : Object.entries(o)
              .map(([k, v]) => `${k}: ${v}`)
              .join('\n') + '\n';
      } else {
        const l = await LISTINGS[kind](site, arg);
        text = values.json ? `${JSON.stringify(l.rows, null, 2)}\n` : table(l);
      }
      await writeOut(text);
    } catch (e) {
      if (!(e instanceof FileError)) throw e;
      process.stderr.write(`smartcage site ls: ${e.message}\n`);
      return EXIT.IO;
    } finally {
      await site.close();
    }
    return EXIT.OK;
  },
};

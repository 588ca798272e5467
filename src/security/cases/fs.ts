/**
 * Catalogue cases of category FS (docs/security.md FS), run as templates through the harness
 * engine against the harness files adapter (src/security/host/files.ts: real tenant folders beside
 * the outside canary file, with symlink and hard-link traps planted in the attacking tenant).
 *
 * Every case additionally fails (escaped) when the outside canary file was read (its access time
 * moved, where the mount reports reads) or when anything was created in the scratch dir beside the
 * tenant folders. Canary content in any output or error is caught by `judge`.
 *
 * FS-13..FS-18 (archives) are in fs-archives.ts.
 */
import { spawn } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RenderOptions } from '../../engine.js';
import type { HarnessContext, Outcome, RenderAttempt, SecurityCase } from '../types.js';
import { judge } from './helpers.js';
import {
  HARNESS_FILE_LIMITS,
  harnessScratchDir,
  harnessTenantRoot,
  outsideFileTouched,
  scratchDirAdditions,
} from '../host/files.js';

const UUID = '0b6f1d2e-3c4a-4b5c-8d9e-0f1a2b3c4d5e';

/** Wraps a case body with the file canary checks. */
export function fsCase(id: string, title: string, body: (h: HarnessContext) => Promise<Outcome>): SecurityCase {
  return {
    id,
    category: 'FS',
    title,
    async run(h) {
      const o = await body(h);
      if (outsideFileTouched() === 'touched')
        return { status: 'escaped', detail: `the outside canary file was read; ${o.detail}` };
      const added = scratchDirAdditions();
      if (added.length > 0)
        return {
          status: 'escaped',
          detail: `files appeared beside the tenant folders (${added.slice(0, 3).join(', ')}); ${o.detail}`,
        };
      const atime = outsideFileTouched();
      return atime === 'unavailable'
        ? { ...o, detail: `${o.detail} (read detection by atime unavailable on this mount)` }
        : o;
    },
  };
}

function setupRoot(): string {
  const root = harnessTenantRoot('default');
  if (!root) throw new Error('the FS cases need the harness files adapter (src/security/host/files.ts)');
  return root;
}

/** Every path-taking attribute of every files plugin, with the path passed as data ($p). */
const SITES: { name: string; tpl: string; slash: 'keep' | 'strip' }[] = [
  { name: 'read_file.path', tpl: '{read_file path=$p row=r}{$r}{/read_file}', slash: 'keep' },
  { name: 'read_dir.path', tpl: '{read_dir path=$p file_var=f}{$f.path}{/read_dir}', slash: 'keep' },
  { name: 'write_file.path', tpl: '{write_file path=$p var=v value="x"}', slash: 'keep' },
  { name: 'write_file.path+append', tpl: '{write_file path=$p var=v value="x" is_append=1}', slash: 'keep' },
  { name: 'put_file.files_path', tpl: '{put_file value="x" files_path=$p}', slash: 'keep' },
  { name: 'put_file.path', tpl: '{put_file value="x" path=$p}', slash: 'keep' },
  { name: 'put_file.tmp_path', tpl: '{put_file tmp_path=$p files_path="/files/user/fs-out.txt"}', slash: 'keep' },
  { name: 'remove_file.path', tpl: '{remove_file path=$p status_var=s}', slash: 'keep' },
  { name: 'remove_dir.path', tpl: '{remove_dir path=$p status_var=s}', slash: 'keep' },
  {
    name: 'rename_file.src_path',
    tpl: '{rename_file src_path=$p dest_path="files/g/fs-out.txt" status_var=s}',
    slash: 'strip',
  },
  {
    name: 'rename_file.dest_path',
    tpl: '{rename_file src_path="files/g/fs-src.txt" dest_path=$p status_var=s}',
    slash: 'strip',
  },
  { name: 'storage_url.path', tpl: '{storage_url var=u path=$p}{$u}', slash: 'keep' },
  {
    name: 'copy_s3_temp_file.file_id',
    tpl: '{copy_s3_temp_file file_id=$p dest_path="/files/g/fs-out.txt"}',
    slash: 'strip',
  },
  {
    name: 'copy_s3_temp_file.dest_path',
    tpl: `{copy_s3_temp_file file_id="files/temp/upload/default/${UUID}.txt" dest_path=$p}`,
    slash: 'keep',
  },
];

/** A corpus of paths tried at every site; each attempt must end in E_PATH_DENIED. */
function pathCorpus(id: string, title: string, paths: string[]): SecurityCase {
  return fsCase(id, title, async (h) => {
    setupRoot();
    let n = 0;
    for (const raw of paths) {
      for (const site of SITES) {
        const forms = site.slash === 'strip' && raw.startsWith('/') && raw.length > 1 ? [raw, raw.slice(1)] : [raw];
        for (const p of forms) {
          const a = await h.render(site.tpl, { vars: { p } });
          const o = judge(h, a, a.code === 'E_PATH_DENIED', 'refused with E_PATH_DENIED');
          if (o.status !== 'contained')
            return { ...o, detail: `${site.name} ${JSON.stringify(p).slice(0, 80)}: ${o.detail}` };
          n++;
        }
      }
    }
    return {
      status: 'contained',
      detail: `${n} attempts (${paths.length} path forms x ${SITES.length} plugin attributes) refused with E_PATH_DENIED`,
      figures: { attempts: n },
    };
  });
}

const DOT_DOT = [
  '/files/user/../../etc/passwd',
  '/files/user/../../../outside.txt',
  `/files/user/${'../'.repeat(24)}outside.txt`,
  '/files/user/../ltd/x',
  '/files/temp/a/../../user/x',
  '/files/g/../../../outside.txt',
  '/files/user/a/../../../..',
  '/files/user/..',
  '/files/user/../',
  '/files/../files/user/x',
  '/files/user/./x',
  '/files/user/a/./../../../outside.txt',
  '/files/user/link-dir/../outside.txt',
  '/files/user/.../outside.txt',
  '/files/g/private/../../../outside.txt',
];

const ENCODED = [
  '/files/user/%2e%2e/%2e%2e/%2e%2e/outside.txt',
  '/files/user/%2e%2e%2f%2e%2e%2f%2e%2e%2foutside.txt',
  '/files/user/%2E%2E/x',
  '/files/user/%252e%252e%252foutside.txt',
  '/files/user/..%c0%af..%c0%afoutside.txt',
  '/files/user/..\\..\\..\\outside.txt',
  '/files/user/..%5c..%5coutside.txt',
  '/files/user/%u002e%u002e/x',
  '/files/user/\uff0e\uff0e\uff0f\uff0e\uff0e\uff0foutside.txt',
  '/files/user/\uff0e\uff0e/x',
  '/files/user/a\uff3c..\uff3cx',
  '/files/user/\u2025/x',
  '/files/user/\u2024\u2024/x',
  '/files/user/\ufe52\ufe52/x',
  '/files/user/a.csv%00.png',
];

const FOREIGN = [
  '/etc/passwd',
  '/proc/self/environ',
  '/dev/zero',
  'C:\\Windows\\win.ini',
  'C:/Windows/win.ini',
  '\\\\server\\share\\x',
  '//server/share/x',
  'file:///etc/passwd',
  'http://127.0.0.1/files/user/x',
  '/files/user//../../',
  '//files/user/x',
  '/files',
  '/files/',
  '/',
  '/FILES/USER/x',
  '/files/users/x',
  '/files/member/x',
  '~/x',
];

const CONTROL = [
  '/files/user/a.csv\0.png',
  '/files/user/a\n.csv',
  '/files/user/a\r.csv',
  '/files/user/a\t.csv',
  '/files/user/a\u202egpj.csv',
  '/files/user/a\u200b.csv',
  '/files/user/\ufeffa.csv',
  '/files/user/a\u0085.csv',
  '/files/user/a\u2028.csv',
  '/files/user/a\x7f.csv',
  '/files/user/\x1b[31m.csv',
  '/files/user/a\ud800.csv',
  '/files/user/a\ufffe.csv',
];

const WINDOWS = [
  '/files/user/CON',
  '/files/user/aux.txt',
  '/files/user/COM1:',
  '/files/user/com1',
  '/files/user/a.txt.',
  '/files/user/a.txt ',
  '/files/user/ a.txt',
  '/files/user/a.txt::$DATA',
  '/files/user/C:foo',
  '/files/user/NUL .txt',
  '/files/user/con.tar.gz',
  '/files/user/lpt\u00b9',
  '/files/user/CONIN$',
  '/files/user/a<b>.txt',
  '/files/user/a|b',
  '/files/user/a?.txt',
  '/files/user/a*.txt',
];

/** The render must end with one of `codes`, or render `output`. */
function expect(h: HarnessContext, a: RenderAttempt, what: string, ok: (a: RenderAttempt) => boolean): Outcome {
  return judge(h, a, ok(a), what);
}

export async function all(
  h: HarnessContext,
  checks: { tpl: string; vars?: Record<string, unknown>; ok: (a: RenderAttempt) => boolean; what: string }[],
  opts: RenderOptions = {},
): Promise<Outcome> {
  for (const c of checks) {
    const a = await h.render(c.tpl, { ...opts, vars: c.vars });
    const o = expect(h, a, c.what, c.ok);
    if (o.status !== 'contained') return { ...o, detail: `${JSON.stringify(c.tpl).slice(0, 90)}: ${o.detail}` };
  }
  return { status: 'contained', detail: `${checks.length} checks` };
}

const denied = (a: RenderAttempt) => a.code === 'E_PATH_DENIED';

/** The one file at the top of FS-11's folder chain. */
const WALK_FILE = `/files/user/walk/${'a'.repeat(40)}!`;

export const FS: SecurityCase[] = [
  pathCorpus('FS-01', "dot-dot segments never leave the plugin's roots", DOT_DOT),
  pathCorpus('FS-02', 'encoded dot-dot, backslashes and compatibility characters are refused, never decoded', ENCODED),
  pathCorpus('FS-03', 'absolute, foreign and undocumented roots are refused', FOREIGN),
  pathCorpus('FS-04', 'control, format and bidi characters are refused before touching the filesystem', CONTROL),
  pathCorpus('FS-05', 'Windows device names, reserved characters, trailing dots and spaces are refused', WINDOWS),

  fsCase('FS-06', "symlinks and hard links planted in the tenant's storage are never followed", async (h) => {
    const root = setupRoot();
    const hard = (() => {
      try {
        return lstatSync(join(root, 'user/hard.txt')).nlink > 1;
      } catch {
        return false;
      }
    })();
    const tplRead = (p: string) => `{read_file path="${p}" row=r}{$r}{/read_file}`;
    const checks = [
      { tpl: tplRead('/files/user/link-file'), ok: denied, what: 'link to the outside file: E_PATH_DENIED' },
      {
        tpl: tplRead('/files/user/link-dir/outside.txt'),
        ok: denied,
        what: 'through a link to the outside folder: E_PATH_DENIED',
      },
      {
        tpl: tplRead('/files/user/link-victim/private/canary.txt'),
        ok: denied,
        what: 'through a link to another tenant: E_PATH_DENIED',
      },
      { tpl: tplRead('/files/user/loop/loop/link-file'), ok: denied, what: 'through a link loop: E_PATH_DENIED' },
      {
        tpl: '{read_dir path="/files/user/link-dir" file_var=f}{$f.path}{/read_dir}',
        ok: denied,
        what: 'listing a linked folder: E_PATH_DENIED',
      },
      {
        tpl: '{read_dir path="/files/user/link-victim" recursive=true file_var=f}{$f.path}{/read_dir}',
        ok: denied,
        what: 'listing another tenant through a link: E_PATH_DENIED',
      },
      {
        tpl: '{write_file path="/files/user/link-dir/escaped.txt" var=v value="x"}',
        ok: denied,
        what: 'writing through a linked folder: E_PATH_DENIED',
      },
      {
        tpl: '{write_file path="/files/user/link-file" var=v value="x"}',
        ok: denied,
        what: 'replacing a link: E_PATH_DENIED',
      },
      {
        tpl: '{write_file path="/files/user/link-file" var=v value="x" is_append=1}',
        ok: denied,
        what: 'appending through a link: E_PATH_DENIED',
      },
      {
        tpl: '{remove_file path="/files/user/link-file" status_var=s}',
        ok: denied,
        what: 'removing a link: E_PATH_DENIED',
      },
      {
        tpl: '{remove_dir path="/files/user/link-dir" status_var=s}',
        ok: denied,
        what: 'removing a linked folder: E_PATH_DENIED',
      },
      {
        tpl: '{put_file tmp_path="/files/temp/link-temp/outside.txt" files_path="/files/user/stolen.txt"}',
        ok: denied,
        what: 'put_file from a linked folder: E_PATH_DENIED',
      },
      {
        tpl: '{rename_file src_path="files/g/link-g/outside.txt" dest_path="files/g/stolen.txt" status_var=s}',
        ok: denied,
        what: 'moving out of a linked folder: E_PATH_DENIED',
      },
      {
        tpl: '{storage_url var=u path="/files/g/link-g/outside.txt"}{$u}',
        ok: denied,
        what: 'signing a URL through a link: E_PATH_DENIED',
      },
      {
        tpl: `{copy_s3_temp_file file_id="files/temp/link-temp/default/${UUID}.txt" dest_path="/files/g/stolen.txt"}`,
        ok: denied,
        what: 'copying an upload through a link: E_PATH_DENIED',
      },
      {
        tpl: '{read_dir path="/files/user" recursive=true file_var=f}{$f.path};{/read_dir}',
        ok: (a: RenderAttempt) => a.output !== undefined && !/link-|\/loop/.test(a.output),
        what: 'listings skip links and never descend into them',
      },
    ];
    if (hard)
      checks.push({
        tpl: tplRead('/files/user/hard.txt'),
        ok: denied,
        what: 'hard link to the outside file: E_PATH_DENIED',
      });
    const o = await all(h, checks);
    if (o.status !== 'contained') return o;
    for (const p of ['user/stolen.txt', 'g/stolen.txt']) {
      if (exists(join(root, p))) return { status: 'escaped', detail: `${p} was created from a linked source` };
    }
    return {
      status: 'contained',
      detail: `${checks.length} attempts through planted links refused${hard ? ' (hard link included)' : ' (no hard link: other filesystem)'}`,
    };
  }),

  fsCase('FS-07', 'check-then-use race: a folder and a file swapped for links while templates read', async (h) => {
    const root = setupRoot();
    const scratch = harnessScratchDir()!;
    const u = (p: string) => join(root, 'user', p);
    rmSync(u('race'), { recursive: true, force: true });
    for (const p of ['race-real', 'race-link', 'race-file.txt', 'race-file-real', 'race-file-link'])
      rmSync(u(p), { recursive: true, force: true });
    mkdirSync(u('race'));
    writeFileSync(u('race/outside.txt'), 'BENIGN');
    symlinkSync(scratch, u('race-link'));
    writeFileSync(u('race-file.txt'), 'BENIGN');
    symlinkSync(join(scratch, 'outside.txt'), u('race-file-link'));
    // The attacker: a separate process swapping as fast as it can (true parallelism).
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        SWAPPER,
        u('race'),
        u('race-real'),
        u('race-link'),
        u('race-file.txt'),
        u('race-file-real'),
        u('race-file-link'),
      ],
      { stdio: 'ignore' },
    );
    let swaps: number;
    const iterations = RACE_ITERATIONS;
    const codes: Record<string, number> = {};
    let benign = 0;
    try {
      await new Promise((r) => setTimeout(r, 50));
      const tpls = [
        '{read_file path="/files/user/race/outside.txt" row=r}{$r}{/read_file}',
        '{read_file path="/files/user/race-file.txt" row=r}{$r}{/read_file}',
      ];
      // What is judged is where each read lands, not how fast: the swapper holds a core, and on a
      // loaded CI machine one read in 10,000 once waited past the default 5 s wall limit.
      const engine = h.engine({ wallMs: RACE_WALL_MS });
      for (let i = 0; i < iterations; i += 4) {
        const batch = await Promise.all([0, 1, 2, 3].map((k) => h.render(tpls[(i + k) % 2], { engine })));
        for (const a of batch) {
          const o = judge(
            h,
            a,
            a.output === 'BENIGN' || a.code === 'E_PATH_DENIED' || a.code === 'E_FILE_NOT_FOUND',
            'BENIGN, E_PATH_DENIED or E_FILE_NOT_FOUND',
          );
          if (o.status !== 'contained') return { ...o, detail: `iteration ${i}: ${o.detail}` };
          if (a.output === 'BENIGN') benign++;
          else codes[a.code!] = (codes[a.code!] ?? 0) + 1;
        }
      }
    } finally {
      swapper.kill();
      await new Promise((r) => (swapper.exitCode !== null ? r(null) : swapper.once('exit', r)));
      try {
        swaps = Number(readFileSync(u('race-count'), 'utf8')) || 0;
      } catch {
        swaps = 0;
      }
    }
    const refused = Object.values(codes).reduce((x, y) => x + y, 0);
    if (benign === 0 || refused === 0)
      return {
        status: 'escaped',
        detail: `the race did not happen (benign ${benign}, refused ${refused}): the case tested nothing`,
      };
    return {
      status: 'contained',
      detail: `${iterations} reads during the swaps: 0 escapes, ${benign} benign reads, refusals ${JSON.stringify(codes)}`,
      figures: { iterations, escapes: 0, benign, refused, swaps },
    };
  }),

  fsCase('FS-08', 'one canonical form: NFC and NFD name one file, case is kept, root names are exact', async (h) => {
    setupRoot();
    const nfc = '/files/user/caf\u00e9-fs08.txt';
    const nfd = '/files/user/cafe\u0301-fs08.txt';
    return all(h, [
      {
        tpl: '{write_file path=$a var=v value="one"}{read_file path=$b row=r}{$r}{/read_file}',
        vars: { a: nfc, b: nfd },
        ok: (a) => a.output === 'one',
        what: 'NFD reads the file written as NFC',
      },
      {
        tpl: '{write_file path=$b var=v value="two"}{read_file path=$a row=r}{$r}{/read_file}{if $v === $a}-same{/if}',
        vars: { a: nfc, b: nfd },
        ok: (a) => a.output === 'two-same',
        what: 'NFD write replaces the NFC file; var holds the NFC form',
      },
      {
        tpl: '{read_dir path="/files/user" name_only=true file_var=p pattern="/caf/"}{$p}|{/read_dir}',
        ok: (a) => a.output === `${nfc}|`,
        what: 'one entry, in NFC',
      },
      {
        tpl: '{write_file path="/files/user/Report-fs08.csv" var=v value="upper"}{write_file path="/files/user/report-fs08.csv" var=v value="lower"}{read_file path="/files/user/Report-fs08.csv" row=r}{$r}{/read_file}-{read_file path="/files/user/report-fs08.csv" row=r}{$r}{/read_file}',
        ok: (a) => a.output === 'upper-lower',
        what: 'case-sensitive names: two files, no aliasing',
      },
      {
        tpl: '{read_file path="/FILES/USER/report-fs08.csv" row=r}{$r}{/read_file}',
        ok: denied,
        what: 'root names are exact: E_PATH_DENIED',
      },
      {
        tpl: '{read_file path="/files/User/report-fs08.csv" row=r}{$r}{/read_file}',
        ok: denied,
        what: 'root names are exact: E_PATH_DENIED',
      },
      {
        tpl: '{rename_file src_path="files/G/a.txt" dest_path="files/g/b.txt" status_var=s}',
        ok: denied,
        what: 'cloud root name is exact: E_PATH_DENIED',
      },
      {
        tpl: '{read_dir path=$p file_var=f}{/read_dir}',
        vars: { p: '/files/\uff55ser' },
        ok: denied,
        what: 'full-width root letters: E_PATH_DENIED',
      },
    ]);
  }),

  fsCase('FS-09', 'cross-root moves and foreign temporary uploads are refused per the spec', async (h) => {
    const root = setupRoot();
    mkdirSync(join(root, 'temp/upload/default'), { recursive: true });
    writeFileSync(join(root, `temp/upload/default/${UUID}.txt`), 'OWN');
    const o = await all(h, [
      {
        tpl: '{write_file path="/files/user/fs09.txt" var=v value="local"}{put_file value="cloud" path="/files/g/fs09.txt"}ok',
        ok: (a) => a.output === 'ok',
        what: 'set-up: both sources exist',
      },
      {
        tpl: '{rename_file src_path="files/user/fs09.txt" dest_path="files/g/fs09-moved.txt" status_var=s}',
        ok: denied,
        what: 'local to cloud: E_PATH_DENIED',
      },
      {
        tpl: '{rename_file src_path="files/g/fs09.txt" dest_path="files/user/fs09-moved.txt" status_var=s}',
        ok: denied,
        what: 'cloud to local: E_PATH_DENIED',
      },
      {
        tpl: '{rename_file src_path="files/ltd/fs09.txt" dest_path="files/a/fs09.txt" status_var=s}',
        ok: denied,
        what: 'ltd to cloud: E_PATH_DENIED',
      },
      {
        tpl: '{rename_file src_path="files/g/fs09.txt" dest_path="files/temp/fs09.txt" status_var=s}',
        ok: denied,
        what: 'cloud to temp: E_PATH_DENIED',
      },
      {
        tpl: '{rename_file src_path="/files/g/fs09.txt" dest_path="files/g/fs09-b.txt" status_var=s}',
        ok: denied,
        what: 'leading slash: E_PATH_DENIED',
      },
      {
        tpl: '{read_file path="/files/user/fs09.txt" row=r}{$r}{/read_file}',
        ok: (a) => a.output === 'local',
        what: 'the local file stayed',
      },
      {
        tpl: `{copy_s3_temp_file file_id="files/temp/upload/victim/${UUID}.txt" dest_path="/files/g/fs09-copy.txt"}`,
        ok: denied,
        what: "another site's upload without status_var: E_PATH_DENIED",
      },
      {
        tpl: `{copy_s3_temp_file file_id="files/temp/upload/victim/${UUID}.txt" dest_path="/files/g/fs09-copy.txt" status_var=s}{if $s === false}false{/if}{storage_url var=u path="/files/g/fs09-copy.txt"}{if $u === null}-absent{/if}`,
        ok: (a) => a.output === 'false-absent',
        what: "another site's upload with status_var: false and nothing copied",
      },
      {
        tpl: `{copy_s3_temp_file file_id="files/temp/upload/default/${UUID}.txt" dest_path="/files/user/fs09-copy.txt"}`,
        ok: denied,
        what: 'local destination: E_PATH_DENIED',
      },
      {
        tpl: `{copy_s3_temp_file file_id="files/temp/upload/default/not-a-uuid.txt" dest_path="/files/g/fs09-copy.txt"}`,
        ok: denied,
        what: 'not an upload ID: E_PATH_DENIED',
      },
      {
        tpl: `{copy_s3_temp_file file_id="files/user/upload/default/${UUID}.txt" dest_path="/files/g/fs09-copy.txt"}`,
        ok: denied,
        what: 'not under files/temp: E_PATH_DENIED',
      },
      {
        tpl: `{copy_s3_temp_file file_id="files/temp/upload/default/${UUID}.txt" dest_path="/files/g/fs09-own.txt" status_var=s}{if $s}copied{/if}{put_file tmp_path="/files/temp/upload/default/${UUID}.txt" files_path="/files/user/fs09-own.txt"}{read_file path="/files/user/fs09-own.txt" row=r}:{$r}{/read_file}{storage_url var=u path="/files/g/fs09-own.txt"}{if $u}:url{/if}`,
        ok: (a) => a.output === 'copied:OWN:url',
        what: "control: the site's own upload is copied",
      },
    ]);
    return o.status === 'contained'
      ? {
          ...o,
          detail: `${o.detail}: cross-root moves refused; foreign uploads not copied (E_PATH_DENIED, or status false with status_var); own upload copied`,
        }
      : o;
  }),

  fsCase(
    'FS-10',
    'writes: quota refusals leave whole records and intact files; concurrent appends never interleave',
    async (h) => {
      const record = 'x'.repeat(65535) + '\n';
      const q = { identity: { tenant: 'fs10' } };
      const r0 = await h.render('{write_file path="/files/user/keep.txt" var=v value="original"}ok', q);
      if (r0.output !== 'ok') return judge(h, r0, false, 'set-up');
      const r1 = await h.render(
        '{section name=i loop=100}{write_file path="/files/user/log.csv" var=v value=$row is_append=1}{/section}',
        { ...q, vars: { row: record } },
      );
      if (r1.code !== 'E_QUOTA') return judge(h, r1, false, 'appending past the quota ends with E_QUOTA');
      const r2 = await h.render(
        '{read_dir path="/files/user" file_var=f pattern=\'/log\\.csv$/\'}{$f.size}{/read_dir}',
        q,
      );
      const size = Number(r2.output);
      if (!(size > 0 && size % record.length === 0 && size <= HARNESS_FILE_LIMITS.quotaBytes))
        return judge(h, r2, false, `log.csv holds whole records within the quota (size ${r2.output})`);
      const r3 = await h.render('{write_file path="/files/user/keep.txt" var=v value=$big}', {
        ...q,
        vars: { big: 'y'.repeat(200_000) },
      });
      if (r3.code !== 'E_QUOTA') return judge(h, r3, false, 'replacing a file past the quota ends with E_QUOTA');
      const r4 = await h.render('{read_file path="/files/user/keep.txt" row=r}{$r}{/read_file}', q);
      if (r4.output !== 'original') return judge(h, r4, false, 'the refused replacement left the old content');
      // Two renders appending at the same time: every line is one whole record.
      const c = { identity: { tenant: 'fs10c' } };
      const app = (ch: string) =>
        h.render(
          '{section name=i loop=40}{write_file path="/files/user/shared.log" var=v value=$row is_append=1}{/section}ok',
          { ...c, vars: { row: ch.repeat(999) + '\n' } },
        );
      const [ra, rb] = await Promise.all([app('A'), app('B')]);
      if (ra.output !== 'ok' || rb.output !== 'ok')
        return judge(h, ra.output !== 'ok' ? ra : rb, false, 'concurrent appends succeed');
      const r5 = await h.render('{read_file path="/files/user/shared.log" row=r}{$r}|{/read_file}', c);
      const lines = (r5.output ?? '').split('|').slice(0, -1);
      const whole = lines.length === 80 && lines.every((l) => l === 'A'.repeat(999) || l === 'B'.repeat(999));
      if (!whole) return judge(h, r5, false, `80 whole records after concurrent appends (got ${lines.length} lines)`);
      return {
        status: 'contained',
        detail: `E_QUOTA after ${size / record.length} whole 64 KiB records; refused replacement left the file intact; 80 concurrent appends all whole (a kill during a write is covered by test/host-bridge/files/tenant-files.test.ts, not here)`,
        figures: { records: size / record.length },
      };
    },
  ),

  fsCase(
    'FS-11',
    'directory walks: entry cap, depth cap, links never followed, patterns matched in the sandbox under its CPU budget',
    async (h) => {
      const root = setupRoot();
      const big = join(root, 'user/walk-big');
      rmSync(big, { recursive: true, force: true });
      mkdirSync(big);
      for (let i = 0; i < HARNESS_FILE_LIMITS.maxEntries + 100; i++) writeFileSync(join(big, `f${i}`), '');
      const deep = join(root, 'user/walk');
      rmSync(deep, { recursive: true, force: true });
      let d = deep;
      mkdirSync(d);
      for (let i = 0; i < 40; i++) {
        writeFileSync(join(d, 'a'.repeat(40) + '!'), '');
        if (i % 5 === 0) symlinkSync('..', join(d, 'loop'));
        d = join(d, 'd');
        mkdirSync(d);
      }
      const o = await all(h, [
        {
          tpl: '{read_dir path="/files/user/walk-big" recursive=true pattern="/(a+)+$/" file_var=f}{/read_dir}',
          ok: (a) => a.code === 'E_SIZE_LIMIT',
          what: `more than ${HARNESS_FILE_LIMITS.maxEntries} entries: E_SIZE_LIMIT`,
        },
        {
          tpl: '{read_dir path="/files/user/walk" recursive=true pattern="/(a+)+$/" file_var=f}{$f.path}|{/read_dir}done',
          // Matched in the isolate (not on the host): it ends at the render's CPU budget, or at once with V8's linear fallback.
          ok: (a) => (a.output === 'done' || (a.code === 'E_CPU_TIMEOUT' && (a.line ?? 0) > 0)) && a.ms < 5000,
          what: 'catastrophic pattern over evil names: no match, or E_CPU_TIMEOUT at its line',
        },
        {
          tpl: '{read_dir path="/files/user/walk" recursive=true pattern="/(a+)+!$/" type="file" file_var=f}x{/read_dir}',
          ok: (a) => a.output === 'x'.repeat(32),
          what: 'matching entries found down to the depth cap (32 levels)',
        },
        {
          tpl: '{read_dir path="/files/user/walk" recursive=true name_only=true type="dir" file_var=p}{$p}|{/read_dir}',
          ok: (a) => a.output !== undefined && !a.output.includes('loop') && a.output.split('|').length - 1 <= 32,
          what: 'no link followed, at most 32 levels',
        },
        {
          tpl: '{read_dir path="/files/user/walk" pattern=\'/(a)\\1!/\' name_only=true file_var=p}{$p}{/read_dir}',
          ok: (a) => a.output === WALK_FILE,
          what: 'a backreference matches as in PHP',
        },
        {
          tpl: '{read_dir path="/files/user/walk" pattern="/(?<=a)!/" name_only=true file_var=p}{$p}{/read_dir}',
          ok: (a) => a.output === WALK_FILE,
          what: 'lookbehind matches as in PHP',
        },
      ]);
      rmSync(big, { recursive: true, force: true });
      return o.status === 'contained'
        ? { ...o, detail: 'entry cap, depth cap, no link followed, patterns matched in the sandbox' }
        : o;
    },
  ),

  fsCase('FS-12', 'roots cannot be removed', async (h) => {
    setupRoot();
    const roots = [
      '/files/user/',
      '/files/user',
      '/files/',
      '/files',
      '/files/user/..',
      '/files/ltd',
      '/files/g',
      '/files/temp',
      '/files/member/ext',
      '/',
    ];
    const checks = roots.flatMap((p) => [
      { tpl: '{remove_dir path=$p status_var=s}', vars: { p }, ok: denied, what: `remove_dir ${p}: E_PATH_DENIED` },
      { tpl: '{remove_file path=$p status_var=s}', vars: { p }, ok: denied, what: `remove_file ${p}: E_PATH_DENIED` },
    ]);
    const o = await all(h, [
      ...checks,
      {
        tpl: '{read_dir path="/files/user" name_only=true file_var=p}{/read_dir}{read_dir path="/files/ltd" name_only=true file_var=p}{/read_dir}ok',
        ok: (a) => a.output === 'ok',
        what: 'the roots are still there',
      },
    ]);
    return o.status === 'contained' ? { ...o, detail: `${checks.length} attempts refused; roots intact` } : o;
  }),
];

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Reads during the FS-07 race (the catalogue asks for 10 000). */
const RACE_ITERATIONS = 10_000;
/** FS-07's wall limit per read, ms: a timeout would hide where the read landed. */
const RACE_WALL_MS = 60_000;

/** The FS-07 attacker, run as `node -e`: swaps a folder and a file for links, forever. */
const SWAPPER = `
const fs = require('fs');
const [race, real, link, file, fileReal, fileLink] = process.argv.slice(1);
const end = Date.now() + 120000;
let n = 0;
const mv = (a, b) => { try { fs.renameSync(a, b); } catch {} };
process.on('SIGTERM', () => { try { fs.writeFileSync(require('path').join(require('path').dirname(race), 'race-count'), String(n)); } catch {} process.exit(0); });
(function loop() {
  for (let i = 0; i < 200; i++) {
    mv(race, real); mv(link, race);
    mv(file, fileReal); mv(fileLink, file);
    mv(race, link); mv(real, race);
    mv(file, fileLink); mv(fileReal, file);
    n++;
  }
  if (Date.now() < end) setImmediate(loop);
})();
`;

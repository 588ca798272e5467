/**
 * Catalogue cases FS-13..FS-18 (docs/security.md FS): {unzip}, {zip} and {gzip} against hostile
 * archives and URLs, with the file canaries of fs.ts (fsCase: the outside file never read,
 * nothing added beside the tenant folders) and the network canaries of the harness (no listener
 * reached). Archives are made here (zip-forge.ts) and put in the attacking tenant's /files/g by
 * hand, as an upload would; each case removes them afterwards (the harness quota is small).
 * The whole corpus, with 1 GiB bombs and 100,000 entries, runs in test/plugins/archives/: the
 * harness tenants read at most 256 KiB, so the bombs here inflate to 50-100 MiB instead.
 */
import { existsSync, lstatSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDecoder } from 'node:util';
import zlib from 'node:zlib';
import type { HarnessContext, Outcome, RenderAttempt, SecurityCase } from '../types.js';
import { harnessScratchDir, harnessTenantRoot } from '../host/files.js';
import { harnessHttp } from '../host/http.js';
import { forgeZip, zerosDeflate, type ForgeEntry } from '../zip-forge.js';
import { all, fsCase } from './fs.js';

const MIB = 1024 * 1024;
const OK: ForgeEntry = { name: 'ok.txt', data: Buffer.from('ok') };
const IN = 'fs-archives-in';
const OUT = 'fs-archives-out';

function root(): string {
  const r = harnessTenantRoot('default');
  if (!r) throw new Error('the archive cases need the harness files adapter (src/security/host/files.ts)');
  return r;
}

/** Puts archives in /files/g/fs-archives-in/, runs the case, then removes what it put and what it made. */
function archiveCase(
  id: string,
  title: string,
  archives: Record<string, () => Buffer>,
  body: (h: HarnessContext) => Promise<Outcome>,
): SecurityCase {
  return fsCase(id, title, async (h) => {
    const folder = join(root(), 'g', IN);
    mkdirSync(folder, { recursive: true });
    for (const [name, make] of Object.entries(archives)) writeFileSync(join(folder, name), make());
    try {
      return await body(h);
    } finally {
      rmSync(folder, { recursive: true, force: true });
      rmSync(join(root(), 'g', OUT), { recursive: true, force: true });
    }
  });
}

const nothingWritten = (a: RenderAttempt, code: string): boolean =>
  a.code === code && !existsSync(join(root(), 'g', OUT));

const unzipTo = (src: string, dest = 'x'): string =>
  `{unzip src="/files/g/${IN}/${src}" dest="/files/g/${OUT}/${dest}"}{foreach from=$unzip_result.files item=f}{$f};{/foreach}|{foreach from=$unzip_result.skipped item=s}{$s.reason};{/foreach}`;

const SLIP: Record<string, string | Uint8Array> = {
  'dotdot.zip': '../outside.txt',
  'deep.zip': `${'../'.repeat(24)}outside.txt`,
  'inner.zip': 'a/../../outside.txt',
  'absolute.zip': '/tmp/outside.txt',
  'backslash.zip': '..\\..\\outside.txt',
  'drive.zip': 'C:\\outside.txt',
  'drive-slash.zip': 'C:/outside.txt',
  'nul.zip': 'outside.txt\u0000.png',
  'fullwidth.zip': '\uff0e\uff0e/outside.txt',
};

const LEGACY_TABLE = '\u8cc7\u6599/\u8868.txt'; // 資料/表.txt: 表 is 0x95 0x5C in cp932

/** 資料/表.txt in cp932, bytes found by the decoder so no encoder is needed. */
function cp932Name(): Uint8Array {
  const bytes = Uint8Array.of(0x8e, 0x91, 0x97, 0xbf, 0x2f, 0x95, 0x5c, 0x2e, 0x74, 0x78, 0x74);
  if (new TextDecoder('shift_jis').decode(bytes) !== LEGACY_TABLE)
    throw new Error('cp932 bytes of the FS-16 name are wrong');
  return bytes;
}

export const FS_ARCHIVES: SecurityCase[] = [
  archiveCase(
    'FS-13',
    'archive entries with ../, absolute names, backslashes, drive letters, NUL: the whole archive refused, nothing written',
    Object.fromEntries(
      Object.entries(SLIP).map(([file, name]) => [file, () => forgeZip([OK, { name, data: Buffer.from('escaped') }])]),
    ),
    async (h) => {
      const o = await all(h, [
        ...Object.keys(SLIP).map((file) => ({
          tpl: unzipTo(file),
          ok: (a: RenderAttempt) => nothingWritten(a, 'E_PATH_DENIED'),
          what: `unzip ${file}: E_PATH_DENIED, nothing written`,
        })),
        ...Object.values(SLIP)
          .filter((n): n is string => typeof n === 'string')
          .map((name) => ({
            tpl: `{zip entries=$e dest="/files/g/${OUT}/z.zip"}`,
            vars: { e: [{ url: `/files/g/${IN}/dotdot.zip`, name }] },
            ok: (a: RenderAttempt) => nothingWritten(a, 'E_PATH_DENIED'),
            what: `zip name ${JSON.stringify(name)}: E_PATH_DENIED`,
          })),
      ]);
      return o.status === 'contained'
        ? {
            ...o,
            detail: `${Object.keys(SLIP).length} archives and ${Object.values(SLIP).length} zip entry names refused, nothing written`,
          }
        : o;
    },
  ),
  archiveCase(
    'FS-14',
    'archive entries that are links: skipped, never created; a planted link as src or dest refused',
    {
      'passwd.zip': () => forgeZip([OK, { name: 'passwd', data: Buffer.from('/etc/passwd'), unixMode: 0o120777 }]),
      'through.zip': () =>
        forgeZip([
          { name: 'root', data: Buffer.from('/'), unixMode: 0o120777 },
          { name: 'root/etc/cron.d/evil', data: Buffer.from('* * * * * root sh') },
        ]),
      'ok.zip': () => forgeZip([OK]),
      'into-link.zip': () => forgeZip([OK, { name: 'planted/outside.txt', data: Buffer.from('escaped') }]),
    },
    async (h) => {
      const out = join(root(), 'g', OUT);
      // An operator's link inside the destination folder, to the scratch dir beside the tenants.
      mkdirSync(join(out, 'c'), { recursive: true });
      symlinkSync(harnessScratchDir()!, join(out, 'c', 'planted'));
      return all(h, [
        {
          tpl: unzipTo('into-link.zip', 'c'),
          ok: (a) => a.code === 'E_PATH_DENIED' && !existsSync(join(out, 'c', 'ok.txt')),
          what: 'an entry written through a link planted in dest: E_PATH_DENIED, and the file written before it removed',
        },
        {
          tpl: unzipTo('passwd.zip', 'a'),
          ok: (a) => a.output === `/files/g/${OUT}/a/ok.txt;|link;` && !existsSync(join(out, 'a', 'passwd')),
          what: 'the link entry skipped, nothing at its name',
        },
        {
          tpl: unzipTo('through.zip', 'b'),
          ok: (a) =>
            a.output === `/files/g/${OUT}/b/root/etc/cron.d/evil;|link;` &&
            lstatSync(join(out, 'b', 'root')).isDirectory() &&
            !lstatSync(join(out, 'b', 'root')).isSymbolicLink(),
          what: 'a file behind a skipped link lands in a real folder of dest',
        },
        {
          tpl: `{unzip src="/files/g/${IN}/ok.zip" dest="/files/g/link-g/x"}`,
          ok: (a) => a.code === 'E_PATH_DENIED',
          what: 'dest through a planted link: E_PATH_DENIED',
        },
        {
          tpl: '{unzip src="/files/g/link-g/outside.zip" dest="/files/g/x"}',
          ok: (a) => a.code === 'E_PATH_DENIED',
          what: 'src through a planted link: E_PATH_DENIED',
        },
        {
          tpl: '{gzip file_url="/files/g/link-g/outside.txt"}',
          ok: (a) => a.code === 'E_PATH_DENIED',
          what: 'gzip source through a planted link: E_PATH_DENIED',
        },
      ]);
    },
  ),
  archiveCase(
    'FS-15',
    'zip bombs: declared, lying, by ratio, by total, nested: refused before or while inflating, or stored unopened',
    {
      'declared.zip': () => forgeZip([OK, { name: 'zeros', compressed: zerosDeflate(100), declaredSize: 100 * MIB }]),
      'lying.zip': () => forgeZip([OK, { name: 'zeros', compressed: zerosDeflate(100), declaredSize: 1024, crc: 0 }]),
      'ratio.zip': () => forgeZip([OK, { name: 'zeros', compressed: zerosDeflate(50), declaredSize: 50 * MIB }]),
      'total.zip': () =>
        forgeZip(
          [1, 2, 3, 4, 5].map((i) => ({
            name: `z${i}`,
            compressed: Buffer.alloc(16),
            declaredSize: 60 * MIB,
            declaredCompressedSize: 60 * MIB,
          })),
        ),
      'nested.zip': () =>
        forgeZip([
          OK,
          { name: 'inner.zip', data: forgeZip([{ name: '../outside.txt', data: Buffer.from('escaped') }]) },
        ]),
    },
    async (h) => {
      const rss0 = process.memoryUsage().rss;
      const o = await all(h, [
        ...['declared.zip', 'lying.zip', 'ratio.zip', 'total.zip'].map((f) => ({
          tpl: unzipTo(f),
          ok: (a: RenderAttempt) => nothingWritten(a, 'E_SIZE_LIMIT'),
          what: `${f}: E_SIZE_LIMIT, nothing written`,
        })),
        {
          tpl: unzipTo('nested.zip'),
          ok: (a) => a.output === `/files/g/${OUT}/x/ok.txt;/files/g/${OUT}/x/inner.zip;|`,
          what: 'a nested zip written as a file, never opened',
        },
      ]);
      const grew = Math.round((process.memoryUsage().rss - rss0) / MIB);
      return o.status === 'contained'
        ? {
            ...o,
            detail: `4 bombs refused, the nested zip stored unopened; resident memory grew ${grew} MiB`,
            figures: { rssGrowthMiB: grew },
          }
        : o;
    },
  ),
  archiveCase(
    'FS-16',
    'entry names in legacy encodings whose bytes hold a \\: decoded first, then judged',
    {
      'cp932.zip': () => forgeZip([{ name: cp932Name(), utf8Flag: false, data: Buffer.from('table') }]),
      'ascii-backslash.zip': () =>
        forgeZip([OK, { name: Buffer.from('a\\..\\..\\outside.txt'), utf8Flag: false, data: Buffer.from('x') }]),
      'undecodable.zip': () =>
        forgeZip([OK, { name: Uint8Array.of(0xff, 0xa0, 0x5c, 0x2e, 0x2e), utf8Flag: false, data: Buffer.from('x') }]),
      'false-utf8.zip': () => forgeZip([OK, { name: cp932Name(), utf8Flag: true, data: Buffer.from('x') }]),
    },
    (h) =>
      all(h, [
        {
          tpl: unzipTo('cp932.zip'),
          ok: (a) => a.output === `/files/g/${OUT}/x/${LEGACY_TABLE};|`,
          what: 'the cp932 name 資料/表.txt extracted as itself (0x5C inside 表 is no separator)',
        },
        {
          tpl: unzipTo('ascii-backslash.zip', 'y'),
          ok: (a) => a.code === 'E_PATH_DENIED' && !existsSync(join(root(), 'g', OUT, 'y')),
          what: 'a real backslash refused',
        },
        {
          tpl: unzipTo('undecodable.zip', 'y'),
          ok: (a) => a.code === 'E_PATH_DENIED',
          what: 'bytes no encoding of detect_order reads refused',
        },
        {
          tpl: unzipTo('false-utf8.zip', 'y'),
          ok: (a) => a.code === 'E_PATH_DENIED',
          what: 'cp932 bytes flagged UTF-8 refused',
        },
        {
          tpl: `{unzip src="/files/g/${IN}/cp932.zip" dest="/files/g/${OUT}/y" detect_order="utf8"}`,
          ok: (a) => a.code === 'E_PATH_DENIED',
          what: 'cp932 bytes with detect_order=utf8 refused, not decoded with replacement characters',
        },
      ]),
  ),
  archiveCase(
    'FS-17',
    'other decompression of tenant data: {gzip} never inflates what it is given, {unzip} of a gzip is refused',
    { 'bomb.gz': () => zlib.gzipSync(Buffer.alloc(64 * MIB), { level: 9 }) },
    (h) =>
      all(h, [
        {
          tpl: `{gzip file_url="/files/g/${IN}/bomb.gz" dest="/files/g/${OUT}/bomb.gz.gz"}{$gzip_dest}`,
          ok: (a) =>
            a.output === `/files/g/${OUT}/bomb.gz.gz` &&
            lstatSync(join(root(), 'g', OUT, 'bomb.gz.gz')).size < 2 * lstatSync(join(root(), 'g', IN, 'bomb.gz')).size,
          what: 'a gzip bomb compressed again, its size about its own',
        },
        {
          tpl: unzipTo('bomb.gz', 'y'),
          ok: (a) => a.code === 'E_FILE_FAILED',
          what: 'a gzip is not a zip: E_FILE_FAILED',
        },
      ]),
  ),
  archiveCase(
    'FS-18',
    'archives built from URLs: internal addresses refused by the egress guard, other schemes by the path rules',
    {},
    (h) => {
      const s = harnessHttp();
      const internal = [
        `https://${s.internal.host}:${s.internal.port}/x.zip`,
        `https://${s.metadata.host}:${s.metadata.port}/latest/meta-data/`,
        'https://127.0.0.1/x.zip',
        'https://[::1]/x.zip',
        'https://10.0.0.5/x.zip',
      ];
      const schemes = [
        `http://${s.internal.host}:${s.internal.port}/x.zip`,
        'file:///etc/passwd',
        'ftp://10.0.0.5/x.zip',
        '//127.0.0.1/x.zip',
      ];
      return all(h, [
        ...internal.flatMap((u) => [
          {
            tpl: '{zip entries=$e dest="/files/g/z.zip"}',
            vars: { e: [{ url: u, name: 'x' }] },
            ok: (a: RenderAttempt) => a.code === 'E_SSRF_DENIED',
            what: `zip ${u}: E_SSRF_DENIED`,
          },
          {
            tpl: '{unzip src=$u dest="/files/g/z"}',
            vars: { u },
            ok: (a: RenderAttempt) => a.code === 'E_SSRF_DENIED',
            what: `unzip ${u}: E_SSRF_DENIED`,
          },
          {
            tpl: '{gzip file_url=$u dest="/files/g/z.gz"}',
            vars: { u },
            ok: (a: RenderAttempt) => a.code === 'E_SSRF_DENIED',
            what: `gzip ${u}: E_SSRF_DENIED`,
          },
        ]),
        ...schemes.map((u) => ({
          tpl: '{unzip src=$u dest="/files/g/z"}',
          vars: { u },
          ok: (a: RenderAttempt) => a.code === 'E_PATH_DENIED',
          what: `unzip ${u}: E_PATH_DENIED`,
        })),
      ]);
    },
  ),
];

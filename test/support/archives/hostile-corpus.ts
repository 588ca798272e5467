/**
 * The corpus of hostile archives {unzip} must refuse or contain (issue 22: zip-slip in every form,
 * links, bombs that tell the truth and bombs that lie, 100,000 entries, nested zips, overlong
 * names, bad encodings). Generated, never stored: each case builds its bytes when asked.
 *
 *   npx tsx test/support/archives/hostile-corpus.ts OUT_DIR   writes every case as OUT_DIR/<id>.zip
 *
 * Each case says what it must come to: refused with an error code (nothing written anywhere), or
 * contained (exactly `files` written below dest, `skipped` entries listed with their reasons).
 * Every refused archive also holds a harmless `ok.txt` before the hostile entry, so "nothing
 * written" shows that the archive was judged whole before the first write.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { forgeZip, zerosDeflate, type ForgeEntry } from '../../../src/security/zip-forge.js';
import { encodeLegacy } from './legacy-encodings.js';

/** Refused: the error code and a part of its message; contained: the files written below dest and the reasons of the entries skipped. */
type Expect = { code: string; says: string } | { files: string[]; skipped?: string[] };

export interface HostileCase {
  id: string;
  title: string;
  archive(): Buffer | Promise<Buffer>;
  expect: Expect;
}

const OK: ForgeEntry = { name: 'ok.txt', data: Buffer.from('ok\n') };
const text = (s: string): Buffer => Buffer.from(s);
const MIB = 1024 * 1024;

/** ok.txt, then one hostile entry: the whole archive must be refused with `code`. */
function refused(id: string, title: string, hostile: ForgeEntry, says: string, code = 'E_PATH_DENIED'): HostileCase {
  return { id, title, archive: () => forgeZip([OK, hostile]), expect: { code, says } };
}

export const HOSTILE_CORPUS: readonly HostileCase[] = [
  // zip-slip, every form
  refused('slip-dotdot', '../ at the start', { name: '../evil.txt', data: text('evil') }, '(dot-segment)'),
  refused('slip-dotdot-inner', '.. inside the name', { name: 'a/../../evil.txt', data: text('evil') }, '(dot-segment)'),
  refused('slip-dot', 'a . segment', { name: 'a/./evil.txt', data: text('evil') }, '(dot-segment)'),
  refused('slip-absolute', 'an absolute name', { name: '/etc/evil.txt', data: text('evil') }, '(absolute)'),
  refused('slip-backslash', 'backslash separators', { name: '..\\..\\evil.txt', data: text('evil') }, '(backslash)'),
  refused(
    'slip-backslash-inner',
    'a backslash inside a segment',
    { name: 'a\\b.txt', data: text('evil') },
    '(backslash)',
  ),
  refused('slip-drive', 'a drive letter', { name: 'C:evil.txt', data: text('evil') }, '(drive-letter)'),
  refused(
    'slip-drive-root',
    'a drive letter and root',
    { name: 'C:/Windows/evil.txt', data: text('evil') },
    '(drive-letter)',
  ),
  refused(
    'slip-nul',
    'a NUL inside the name',
    { name: 'evil.txt\u0000.png', data: text('evil') },
    '(control-character)',
  ),
  refused(
    'slip-control',
    'a control character',
    { name: 'evil\u001b[31m.txt', data: text('evil') },
    '(control-character)',
  ),
  refused('slip-empty-segment', 'an empty segment', { name: 'a//evil.txt', data: text('evil') }, '(empty-segment)'),
  refused(
    'slip-fullwidth-dots',
    'full-width dots (NFKC ..)',
    { name: '\uff0e\uff0e/evil.txt', data: text('evil') },
    '(compatibility-character)',
  ),
  refused('slip-bidi', 'a bidi override', { name: 'evil\u202etxt.exe', data: text('evil') }, '(control-character)'),
  refused('slip-device', 'a Windows device name', { name: 'a/CON.txt', data: text('evil') }, '(device-name)'),
  refused(
    'slip-percent',
    'a percent escape of ..',
    { name: '%2e%2e/evil.txt', data: text('evil') },
    '(percent-escape)',
  ),
  refused(
    'slip-reserved',
    'a reserved character',
    { name: 'a/evil:stream.txt', data: text('evil') },
    '(reserved-character)',
  ),
  refused(
    'slip-trailing-dot',
    'a segment ending in a dot',
    { name: 'evil.txt.', data: text('evil') },
    '(trailing-dot-or-space)',
  ),
  // links and other special entries
  {
    id: 'link',
    title: 'a symbolic link entry (target /etc/passwd)',
    archive: () => forgeZip([OK, { name: 'passwd', data: text('/etc/passwd'), unixMode: 0o120777 }]),
    expect: { files: ['ok.txt'], skipped: ['link'] },
  },
  {
    id: 'link-dir-then-file',
    title: 'a link to / and a file written through it',
    archive: () =>
      forgeZip([
        OK,
        { name: 'root', data: text('/'), unixMode: 0o120777 },
        { name: 'root/etc/evil.txt', data: text('evil') },
      ]),
    expect: { files: ['ok.txt', 'root/etc/evil.txt'], skipped: ['link'] },
  },
  refused(
    'link-slip',
    'a link named with ..',
    { name: '../link', data: text('/etc/passwd'), unixMode: 0o120777 },
    '(dot-segment)',
  ),
  {
    id: 'fifo',
    title: 'a FIFO entry',
    archive: () => forgeZip([OK, { name: 'pipe', unixMode: 0o010644 }]),
    expect: { files: ['ok.txt'], skipped: ['not a regular file'] },
  },
  {
    id: 'dotfiles',
    title: 'dot files and macOS resource forks',
    archive: () =>
      forgeZip([
        OK,
        { name: '.htaccess', data: text('Options +ExecCGI') },
        { name: '__MACOSX/._ok.txt', data: text('x') },
        { name: 'dir/', method: 0 },
      ]),
    expect: { files: ['ok.txt'], skipped: ['dot-file', 'dot-file', 'folder'] },
  },
  // duplicates
  refused('duplicate', 'the same name twice', { name: 'ok.txt', data: text('second') }, '(duplicate-name)'),
  {
    id: 'duplicate-nfc-nfd',
    title: 'one name in NFC and in NFD',
    archive: () =>
      forgeZip([
        { name: 'caf\u00e9.txt', data: text('nfc') },
        { name: 'caf\u0065\u0301.txt', data: text('nfd') },
      ]),
    expect: { code: 'E_PATH_DENIED', says: '(duplicate-name)' },
  },
  refused(
    'file-and-folder',
    'a file where another entry needs a folder',
    { name: 'ok.txt/inner.txt', data: text('x') },
    '(file-and-folder)',
  ),
  // bombs
  refused(
    'bomb-1g-declared',
    '1 GiB declared (and inflating to it)',
    { name: 'zeros.bin', compressed: zerosDeflate(1024), declaredSize: 1024 * MIB },
    'declares 1073741824 bytes',
    'E_SIZE_LIMIT',
  ),
  refused(
    'bomb-1g-lying',
    '1 KiB declared, 1 GiB inside',
    { name: 'zeros.bin', compressed: zerosDeflate(1024), declaredSize: 1024, crc: 0 },
    'holds more than the 1024 bytes it declares',
    'E_SIZE_LIMIT',
  ),
  refused(
    'bomb-ratio',
    '50 MiB declared in 50 KB (1000:1)',
    { name: 'zeros.bin', compressed: zerosDeflate(50), declaredSize: 50 * MIB },
    'compressed more than 200:1',
    'E_SIZE_LIMIT',
  ),
  {
    id: 'bomb-total',
    title: 'five entries of 60 MiB declared (300 MiB in all)',
    archive: () =>
      forgeZip([
        OK,
        ...[1, 2, 3, 4, 5].map((i) => ({
          name: `big${i}.bin`,
          compressed: Buffer.alloc(16),
          declaredSize: 60 * MIB,
          declaredCompressedSize: 60 * MIB,
        })),
      ]),
    expect: { code: 'E_SIZE_LIMIT', says: 'more than 268435456 bytes in all' },
  },
  {
    id: 'entries-100k',
    title: '100,000 entries',
    archive: () => forgeZip(Array.from({ length: 100_000 }, (_, i) => ({ name: `f/${i}.txt`, method: 0 }))),
    expect: { code: 'E_SIZE_LIMIT', says: '100000 entries' },
  },
  refused(
    'short',
    'an entry holding less than it declares',
    { name: 'short.txt', data: text('short'), declaredSize: 50 },
    'not enough bytes',
    'E_FILE_FAILED',
  ),
  refused(
    'crc',
    'an entry failing its CRC',
    { name: 'crc.txt', data: text('changed'), crc: 12345 },
    'CRC-32',
    'E_FILE_FAILED',
  ),
  refused(
    'encrypted',
    'an encrypted entry',
    { name: 'secret.txt', data: text('x'), encrypted: true },
    'is encrypted',
    'E_FILE_FAILED',
  ),
  refused(
    'method',
    'an unknown compression method (bzip2)',
    { name: 'b.txt', method: 12, compressed: text('BZh9'), declaredSize: 4 },
    'compression method 12',
    'E_FILE_FAILED',
  ),
  {
    id: 'not-a-zip',
    title: 'bytes that are not a zip',
    archive: () => Buffer.from('PK\u0003\u0004 but nothing after'),
    expect: { code: 'E_FILE_FAILED', says: 'not a zip archive' },
  },
  // nesting: a zip inside is a file, never opened
  {
    id: 'nested',
    title: 'a zip holding a zip that holds ../evil.txt',
    archive: () => forgeZip([OK, { name: 'inner.zip', data: forgeZip([{ name: '../evil.txt', data: text('evil') }]) }]),
    expect: { files: ['ok.txt', 'inner.zip'] },
  },
  // names
  refused('name-2000-bytes', 'a name of 2,000 bytes', { name: 'a'.repeat(2000), data: text('x') }, '(name-too-long)'),
  refused(
    'segment-300-bytes',
    'a segment of 300 bytes',
    { name: `${'b'.repeat(300)}.txt`, data: text('x') },
    '(segment-too-long)',
  ),
  refused('depth-70', '70 folders deep', { name: `${'d/'.repeat(70)}x.txt`, data: text('x') }, '(too-deep)'),
  refused(
    'encoding-none',
    'a name in no encoding of detect_order',
    { name: Uint8Array.of(0xff, 0xa0, 0x2e, 0x74, 0x78, 0x74), data: text('x') },
    '(name-encoding)',
  ),
  refused(
    'encoding-false-utf8',
    'a cp932 name flagged UTF-8',
    { name: encodeLegacy('表.txt', 'shift_jis'), utf8Flag: true, data: text('x') },
    '(name-encoding)',
  ),
  {
    id: 'cp932-backslash-byte',
    title: 'a cp932 name whose second byte is 0x5C (表: 0x95 0x5C), not a backslash',
    archive: () =>
      forgeZip([OK, { name: encodeLegacy('資料/表.txt', 'shift_jis'), utf8Flag: false, data: text('table') }]),
    expect: { files: ['ok.txt', '資料/表.txt'] },
  },
];

/** Writes the corpus as files, for looking at it with other tools. */
async function main(out: string): Promise<void> {
  mkdirSync(out, { recursive: true });
  for (const c of HOSTILE_CORPUS) writeFileSync(path.join(out, `${c.id}.zip`), await c.archive());
  console.log(`${HOSTILE_CORPUS.length} archives in ${out}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv[2] ?? 'hostile-archives');
}

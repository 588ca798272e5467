/**
 * Memory and data-integrity cases added with issue 33: XML bombs through {xmltojson} (MEM-07),
 * natives fed huge data (MEM-10), writes torn by a killed worker, a limit or a second writer
 * (OPS-09, OPS-10, OPS-11), and the release lines the engine runs on (OPS-13).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { RenderOptions } from '../../engine.js';
import type { HarnessContext, Outcome, SecurityCase } from '../types.js';
import { HARNESS_FILE_LIMITS, harnessTenantRoot } from '../host/files.js';
import { harnessHttp } from '../host/http.js';
import { judge, refusesAll } from './helpers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every name under the tenant's /files/user folder (temporary dot files included). */
function userFiles(tenant: string, sub: string): string[] {
  const root = harnessTenantRoot(tenant);
  const dir = root ? join(root, 'user', sub) : '';
  return dir && existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** Each file under /files/user/`sub` is named `prefix`... and holds exactly `content` (so no temp file is left): null, or what is wrong. */
function allWhole(tenant: string, sub: string, content: string, prefix: string): string | null {
  const root = harnessTenantRoot(tenant) ?? '';
  for (const name of userFiles(tenant, sub)) {
    if (!name.startsWith(prefix)) return `a file other than the written ones is left: ${name}`;
    if (readFileSync(join(root, 'user', sub, name), 'utf8') !== content) return `${name} is torn`;
  }
  return null;
}

/** Entity expansions and DOCTYPEs, some of which would fetch the canary listeners if anything were fetched. */
function xmlBombs(h: HarnessContext): string[] {
  const internal = listener(h, 'internal');
  const metadata = listener(h, 'metadata');
  return [
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><lolz>&lol3;</lolz>',
    `<!DOCTYPE r [<!ENTITY x SYSTEM "http://${internal}/">]><r>&x;</r>`,
    `<!DOCTYPE r [<!ENTITY x SYSTEM "http://${metadata}/latest/meta-data/">]><r>&x;</r>`,
    `<!DOCTYPE r [<!ENTITY % p SYSTEM "http://${internal}/x.dtd"> %p;]><r/>`,
    '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>',
    '<!DOCTYPE r><!DOCTYPE r><r/>',
  ];
}

function listener(h: HarnessContext, which: 'internal' | 'metadata'): string {
  const l = (h.canaries as { listeners?: { internal: string; metadata: string } }).listeners;
  return l?.[which] ?? '127.0.0.1:9';
}

export const MEM_MORE: SecurityCase[] = [
  {
    id: 'MEM-05',
    category: 'MEM',
    title:
      'plugins asked to bring the template far more bytes than it may hold: an endless body, a gzip bomb, a big file',
    async run(h) {
      const s = harnessHttp();
      const tenant = 'mem05';
      const r0 = await h.render('{$x}', { vars: { x: 1 }, identity: { tenant } });
      if (r0.output !== '1') return judge(h, r0, false, 'set-up');
      const dir = join(harnessTenantRoot(tenant) ?? '', 'user');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'big.bin'), Buffer.alloc(HARNESS_FILE_LIMITS.maxReadBytes * 4, 0x61));
      const forms: [string, RenderOptions, string[]][] = [
        [
          '{api endpoint=$u var=r}{$r|count_characters}',
          { vars: { u: `http://api.example.com:${s.port}/endless` } },
          ['E_HTTP_LIMIT'],
        ],
        [
          '{api endpoint=$u var=r}{$r|count_characters}',
          { vars: { u: `http://api.example.com:${s.port}/bomb` } },
          ['E_HTTP_LIMIT'],
        ],
        [
          '{read_file path="/files/user/big.bin" row=r}{$r|count_characters}{/read_file}',
          { identity: { tenant } },
          ['E_SIZE_LIMIT'],
        ],
      ];
      for (const [template, opts, codes] of forms) {
        const a = await h.render(template, opts);
        const o = judge(h, a, a.code !== undefined && codes.includes(a.code), `refused with ${codes.join(' or ')}`);
        if (o.status !== 'contained') return { ...o, detail: `${template.slice(0, 40)}: ${o.detail}` };
      }
      return {
        status: 'contained',
        detail: 'the egress body cap and the file read cap refused each before the bytes reached the template',
      };
    },
  },
  {
    id: 'MEM-09',
    category: 'MEM',
    title: 'a pager over a million items',
    async run(h) {
      const a = await h.render(
        '{section name=i loop=1000000}{append var=a value=$smarty.section.i.index}{/section}{assign_pager from=$a var=p perPage=10000 pageID=99}{$p|@count}',
        { limits: { cpuMs: 10_000, wallMs: 20_000 } },
      );
      const ok = a.output === '10000' || ['E_CPU_TIMEOUT', 'E_MEMORY_LIMIT', 'E_SIZE_LIMIT'].includes(a.code ?? '');
      return judge(h, a, ok, 'one page of at most 10,000 items, or a limit error');
    },
  },
  {
    id: 'MEM-07',
    category: 'MEM',
    title: 'XML bombs, external entities and repeated DOCTYPEs through {xmltojson}',
    async run(h) {
      for (const xml of xmlBombs(h)) {
        const a = await h.render('{xmltojson xml=$xml var=j}{if $j === false}refused{else}{$j}{/if}', {
          vars: { xml },
        });
        const o = judge(h, a, a.output === 'refused', 'refused (false), nothing fetched');
        if (o.status !== 'contained') return { ...o, detail: `${xml.slice(0, 60)}: ${o.detail}` };
      }
      // The canary listeners stand at the internal and metadata addresses: the harness counts any connection.
      return { status: 'contained', detail: `${xmlBombs(h).length} documents refused, no entity expanded or fetched` };
    },
  },
  refusesAll(
    'MEM-10',
    'MEM',
    'natives fed huge data: hashes, encodings and packing of strings and arrays past the caps',
    [
      '{assign var=s value="x"}{section name=i loop=60}{assign var=s value="`$s``$s`"}{/section}{$s|md5}',
      '{assign var=s value="x"}{section name=i loop=60}{assign var=s value="`$s``$s`"}{/section}{$s|base64_encode}',
      '{section name=i loop=100000000}{append var=a value=$smarty.section.i.index|str_pad:2000:"x"}{/section}{$a|@json_encode|md5}',
    ],
    ['E_SIZE_LIMIT', 'E_MEMORY_LIMIT'],
    { limits: { cpuMs: 20_000, wallMs: 30_000 } },
  ),
];

/** Release lines with security support, and until when (nodejs.org/about/previous-releases). */
const NODE_EOL: Record<number, string> = { 24: '2028-04-30', 26: '2029-04-30' };
const ISOLATED_VM_MIN = 7;

export const OPS_MORE: SecurityCase[] = [
  {
    id: 'OPS-09',
    category: 'OPS',
    title: 'a sandbox worker killed while its render writes files: each file whole or absent, no temp file',
    async run(h) {
      const e = h.engine({ cpuMs: 20_000, wallMs: 30_000 });
      const tenant = 'ops09';
      const row = 'w'.repeat(4000);
      await e.render('{$x}', { vars: { x: 1 }, identity: { tenant } });
      const rendering = e
        .render(
          '{section name=i loop=200}{write_file path="/files/user/o9/f`$smarty.section.i.index`.txt" var=v value=$row}{/section}ok',
          { vars: { row }, identity: { tenant } },
        )
        .then(
          (r) => r.output,
          (err: { code?: string }) => err.code ?? 'error',
        );
      // Kill the worker once some writes are done and others still to come.
      for (let i = 0; i < 200 && userFiles(tenant, 'o9').length < 5; i++) await sleep(5);
      for (const pid of e.pids()) process.kill(pid, 'SIGKILL');
      const got = await rendering;
      await sleep(1000);
      const written = userFiles(tenant, 'o9').length;
      const torn = allWhole(tenant, 'o9', row, 'f');
      if (torn) return { status: 'escaped', detail: torn };
      if (got === 'ok' && written !== 200)
        return { status: 'escaped', detail: `rendered, but ${written} of 200 files are there` };
      return {
        status: 'contained',
        detail: `the render ended ${got}; ${written} files, each whole, no temp file left`,
        figures: { written },
      };
    },
  },
  {
    id: 'OPS-10',
    category: 'OPS',
    title: 'two renders append to one file at once: every record whole',
    async run(h) {
      const tenant = 'ops10';
      const app = (ch: string) =>
        h.render(
          '{section name=i loop=30}{write_file path="/files/user/o10/log.txt" var=v value=$row is_append=1}{/section}ok',
          { identity: { tenant }, vars: { row: ch.repeat(2999) + '\n' } },
        );
      const [a, b] = await Promise.all([app('A'), app('B')]);
      if (a.output !== 'ok' || b.output !== 'ok') return judge(h, a.output !== 'ok' ? a : b, false, 'both append');
      const root = harnessTenantRoot(tenant) ?? '';
      const lines = readFileSync(join(root, 'user', 'o10', 'log.txt'), 'utf8')
        .split('\n')
        .slice(0, -1);
      const whole = lines.length === 60 && lines.every((l) => l === 'A'.repeat(2999) || l === 'B'.repeat(2999));
      return whole
        ? { status: 'contained', detail: '60 records of 3,000 bytes from two renders, none interleaved' }
        : { status: 'escaped', detail: `${lines.length} lines, not all whole records` };
    },
  },
  {
    id: 'OPS-11',
    category: 'OPS',
    title: 'a render writes files, then hits its CPU or memory limit: what it wrote is whole',
    async run(h) {
      const tenant = 'ops11';
      const row = 'z'.repeat(50_000);
      const writes =
        '{section name=i loop=5}{write_file path="/files/user/o11/f`$smarty.section.i.index`.txt" var=v value=$row}{/section}';
      const out: Outcome[] = [];
      for (const [tail, code] of [
        ['{section name=i loop=2000000000}{/section}', 'E_CPU_TIMEOUT'],
        [
          '{section name=i loop=100000000}{append var=a value=$smarty.section.i.index|str_pad:2000:"x"}{/section}',
          'E_MEMORY_LIMIT',
        ],
      ] as const) {
        const a = await h.render(writes + tail, {
          identity: { tenant },
          vars: { row },
          limits: { cpuMs: 3000, wallMs: 20_000 },
        });
        const torn = allWhole(tenant, 'o11', row, 'f');
        const files = userFiles(tenant, 'o11').length;
        out.push(
          judge(
            h,
            a,
            a.code === code && torn === null && files === 5,
            `${code}, then 5 whole files (${torn ?? files})`,
          ),
        );
      }
      return (
        out.find((o) => o.status !== 'contained') ?? {
          ...out[0]!,
          detail: 'E_CPU_TIMEOUT and E_MEMORY_LIMIT after 5 writes: 5 whole files each time',
        }
      );
    },
  },
  {
    id: 'OPS-13',
    category: 'OPS',
    title: 'the engine runs on a Node line and an isolated-vm line that still get security fixes',
    async run() {
      const major = Number(process.versions.node.split('.')[0]);
      const eol = NODE_EOL[major];
      const ivm = createRequire(import.meta.url)('isolated-vm/package.json') as { version: string };
      const ivmMajor = Number(ivm.version.split('.')[0]);
      const today = new Date().toISOString().slice(0, 10);
      if (!eol || today > eol)
        return {
          status: 'escaped',
          detail: `Node ${process.versions.node}: not a line with security support (${eol ?? 'unknown'})`,
        };
      if (ivmMajor < ISOLATED_VM_MIN)
        return { status: 'escaped', detail: `isolated-vm ${ivm.version}: older than ${ISOLATED_VM_MIN}` };
      return {
        status: 'contained',
        detail: `Node ${process.versions.node} (security fixes until ${eol}), isolated-vm ${ivm.version} (D23)`,
      };
    },
  },
];

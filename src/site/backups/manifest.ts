/**
 * The manifest of a backup (layout.ts) and its decoder. A restore reads archives it did not
 * make, so the manifest is untrusted input: `decodeManifest` checks every field's shape, the
 * entry cap, the names and sizes, and that the tables and the db/ entries agree, and answers a
 * typed Manifest or one sentence saying what is wrong. Nothing is cast.
 */
import {
  MANIFEST,
  MAX_BACKUP_BYTES,
  SEALED_SUFFIX,
  SECRET_FILES,
  backupTables,
  safeEntryName,
  type SecretFile,
} from './layout.js';

export interface ManifestEntry {
  name: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  /** 1 (secrets in clear) or 2 (sealed or left out). */
  format: number;
  engine: string;
  site_key: string;
  created: number;
  /** The database the rows came from: `sqlite` or `postgres`. */
  backend: string;
  tables: { name: string; rows: number }[];
  entries: ManifestEntry[];
  /** Secret files held as site/<file>.sealed, encrypted with the backup key (sealed.ts). */
  sealed: SecretFile[];
  /** Secret files not in the backup: no backup key was configured when it was made. */
  left_out: SecretFile[];
}

export type Decoded = { ok: true; manifest: Manifest } | { ok: false; why: string };

/** The site key rule of site.json (config.ts): what a restore may use as a tenant. */
const SITE_KEY = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const SHA256 = /^[0-9a-f]{64}$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function secretList(v: unknown, field: string): SecretFile[] | string {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > SECRET_FILES.length) return `"${field}" is not a list of secret files`;
  const out: SecretFile[] = [];
  for (const f of v) {
    const known = SECRET_FILES.find((s) => s === f);
    if (!known || out.includes(known))
      return `"${field}" names ${JSON.stringify(f).slice(0, 60)}, which is not a secret file of a site`;
    out.push(known);
  }
  return out;
}

/** `json` (the parsed manifest.json) as a Manifest, or why not; at most `maxEntries` entries. */
export function decodeManifest(json: unknown, maxEntries: number): Decoded {
  const no = (why: string): Decoded => ({ ok: false, why: `its ${MANIFEST} ${why}` });
  if (!isRecord(json)) return no('is not an object');
  const { format, engine, site_key, created, backend, tables, entries } = json;
  if (format !== 1 && format !== 2)
    return no(`has format ${JSON.stringify(format)?.slice(0, 20)}, which this version of smartcage does not read`);
  if (typeof engine !== 'string' || engine.length > 100) return no('has no engine version');
  if (typeof site_key !== 'string' || !SITE_KEY.test(site_key)) return no('has no valid site_key');
  if (!isCount(created)) return no('has no creation time');
  if (backend !== 'sqlite' && backend !== 'postgres') return no('names no known backend');
  if (!Array.isArray(entries)) return no('has no list of entries');
  if (entries.length > maxEntries)
    return no(`lists ${entries.length} entries, more than the ${maxEntries} a restore takes (--max-entries)`);
  if (!Array.isArray(tables)) return no('has no list of tables');
  const sealed = secretList(json.sealed, 'sealed');
  if (typeof sealed === 'string') return no(sealed);
  const leftOut = secretList(json.left_out, 'left_out');
  if (typeof leftOut === 'string') return no(leftOut);

  const out: ManifestEntry[] = [];
  const names = new Set<string>();
  let total = 0;
  for (const e of entries as unknown[]) {
    if (
      !isRecord(e) ||
      typeof e.name !== 'string' ||
      !isCount(e.size) ||
      typeof e.sha256 !== 'string' ||
      !SHA256.test(e.sha256)
    )
      return no('has an entry without a name, size and SHA-256');
    if (e.name === MANIFEST || !safeEntryName(e.name))
      return no(`lists entry ${JSON.stringify(e.name.slice(0, 80))}, outside site/, files/ and db/`);
    if (names.has(e.name)) return no(`lists ${e.name} twice`);
    total += e.size;
    if (total > MAX_BACKUP_BYTES) return no(`lists more than ${MAX_BACKUP_BYTES >> 20} MiB`);
    names.add(e.name);
    out.push({ name: e.name, size: e.size, sha256: e.sha256 });
  }

  const known = new Set(backupTables());
  const tableList: Manifest['tables'] = [];
  for (const t of tables as unknown[]) {
    if (!isRecord(t) || typeof t.name !== 'string' || !isCount(t.rows))
      return no('has a table without a name and a row count');
    if (!known.has(t.name))
      return no(`lists table ${JSON.stringify(t.name.slice(0, 60))}, which this version of smartcage does not have`);
    if (tableList.some((x) => x.name === t.name)) return no(`lists table ${t.name} twice`);
    if (!names.has(`db/${t.name}.jsonl`)) return no(`lists table ${t.name} without its entry db/${t.name}.jsonl`);
    tableList.push({ name: t.name, rows: t.rows });
  }
  for (const n of names) {
    if (n.startsWith('db/') && !tableList.some((t) => n === `db/${t.name}.jsonl`))
      return no(`lists ${n}, which is no table of the backup`);
    if (n.endsWith(SEALED_SUFFIX) && !sealed.some((f) => n === `site/${f}${SEALED_SUFFIX}`))
      return no(`lists ${n}, which it does not say is sealed`);
  }
  for (const f of sealed)
    if (!names.has(`site/${f}${SEALED_SUFFIX}`))
      return no(`says ${f} is sealed but lists no site/${f}${SEALED_SUFFIX}`);
  if (!names.has('site/site.json')) return no('lists no site/site.json');
  return {
    ok: true,
    manifest: {
      format,
      engine,
      site_key,
      created,
      backend,
      tables: tableList,
      entries: out,
      sealed,
      left_out: leftOut,
    },
  };
}

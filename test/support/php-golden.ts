/**
 * Committed PHP answers ("golden fixtures") for the table-driven PHP comparison tests, so the
 * tests run without php and a reader can see every expected value.
 *
 * `phpGolden(name, calls)` answers like `callPhp(calls)` from test/fixtures/php/<name>.json. A
 * name starts with the folder of the tests that read it (`php/pcre/preg-table` for
 * test/php/pcre/), so the fixtures mirror the tests as the tests mirror src/. The
 * stored calls must equal the requested ones: an edited case table fails loudly until the
 * fixture is regenerated with `UPDATE_PHP_FIXTURES=1` (or `npm run fixtures:php`), which asks
 * live PHP and rewrites the file. test/conformance/php-fixtures.test.ts replays every stored call
 * through live PHP in CI, so a fixture cannot drift from PHP unnoticed.
 *
 * File layout (one case per line, so diffs show exactly which answers changed):
 *   {"name", "php", "note", "regenerate", "cases": [{"case"?, "call", "result"}, ...]}
 * Readable strings: a result string `{"str": base64}` whose bytes are valid UTF-8 is written
 * `{"text": "..."}`, and a call argument `{"$bytes": base64}` is written `{"$text": "..."}`;
 * reading restores the oracle's form exactly. The repository path is written as {{repo}}.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callPhp, type OracleCall, type OracleResult } from './php-oracle.js';

export type PhpCall = OracleCall;
export type PhpResult = OracleResult;

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const FIXTURE_DIR = join(REPO_ROOT, 'test', 'fixtures', 'php');
const REPO_TOKEN = '{{repo}}';
const REGENERATE = 'npm run fixtures:php  (or UPDATE_PHP_FIXTURES=1 npx vitest run <test file>)';

export interface GoldenOptions {
  /** Said in the fixture header: where the PHP code comes from when it is not PHP's own function. */
  note?: string;
  /** One readable label per call, written beside it (not compared). */
  labels?: string[];
}

interface GoldenCase {
  call: PhpCall;
  result: PhpResult;
  label?: string;
}

export interface GoldenFile {
  name: string;
  php: string;
  note: string;
  cases: GoldenCase[];
}

const updating = (): boolean => process.env.UPDATE_PHP_FIXTURES === '1';

function fixturePath(name: string): string {
  if (!/^[a-z0-9][a-z0-9/_-]*$/.test(name) || name.includes('..'))
    throw new Error(`bad fixture name ${JSON.stringify(name)}`);
  return join(FIXTURE_DIR, `${name}.json`);
}

/** The answers to `calls`, from the committed fixture (or from live PHP when updating). */
export function phpGolden(name: string, calls: PhpCall[], opts: GoldenOptions = {}): PhpResult[] {
  const wanted = calls.map(canonicalCall);
  if (updating()) {
    const results = callPhp(wanted.map(withRepo));
    save({
      name,
      note: opts.note,
      cases: wanted.map((call, i) => ({ call, result: results[i], label: opts.labels?.[i] })),
    });
    return results;
  }
  const stored = loadOrFail(name);
  const first = firstDifference(
    stored.cases.map((c) => c.call),
    wanted,
  );
  if (first !== null) {
    throw new Error(
      `PHP fixture ${relative(REPO_ROOT, fixturePath(name))} is stale: ${first}.\n` +
        `The case table changed since the fixture was generated; regenerate it with live PHP:\n  ${REGENERATE}`,
    );
  }
  return stored.cases.map((c) => withRepoResult(c.result));
}

/**
 * For tests that ask PHP one call at a time (the examples tests evaluate a template step by
 * step): each call is looked up in the fixture. When updating, the fixture is rewritten with
 * the calls of this run, in the order they were made.
 */
export function phpGoldenLookup(name: string, opts: GoldenOptions = {}): (call: PhpCall) => PhpResult {
  if (updating()) {
    const made: GoldenCase[] = [];
    const seen = new Map<string, PhpResult>();
    return (call) => {
      const c = canonicalCall(call);
      const key = JSON.stringify(c);
      let result = seen.get(key);
      if (!result) {
        [result] = callPhp([withRepo(c)]);
        seen.set(key, result);
        made.push({ call: c, result });
        save({ name, note: opts.note, cases: made });
      }
      return result;
    };
  }
  let byCall: Map<string, PhpResult> | null = null;
  return (call) => {
    byCall ??= new Map(loadOrFail(name).cases.map((c) => [JSON.stringify(c.call), c.result]));
    const key = JSON.stringify(canonicalCall(call));
    const result = byCall.get(key);
    if (!result) {
      throw new Error(
        `PHP fixture ${relative(REPO_ROOT, fixturePath(name))} has no answer for ${key.slice(0, 300)}.\n` +
          `The test asks PHP something new; regenerate the fixture with live PHP:\n  ${REGENERATE}`,
      );
    }
    return withRepoResult(result);
  };
}

/** Every committed fixture (for the live re-check). */
export function allFixtures(): GoldenFile[] {
  if (!existsSync(FIXTURE_DIR)) return [];
  const names: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.json')) names.push(relative(FIXTURE_DIR, join(dir, e.name)).replace(/\.json$/, ''));
    }
  };
  walk(FIXTURE_DIR);
  return names.map((n) => load(n)!);
}

/** A stored call as it is sent to PHP from this checkout. */
export function withRepo(call: PhpCall): PhpCall {
  return JSON.parse(JSON.stringify(call).split(REPO_TOKEN).join(jsonInner(REPO_ROOT))) as PhpCall;
}

function withRepoResult(result: PhpResult): PhpResult {
  return JSON.parse(JSON.stringify(result).split(REPO_TOKEN).join(jsonInner(REPO_ROOT))) as PhpResult;
}

/** A call as JSON sees it (what PHP receives), with this checkout's path made neutral. */
function canonicalCall(call: PhpCall): PhpCall {
  return JSON.parse(JSON.stringify(call).split(jsonInner(REPO_ROOT)).join(REPO_TOKEN)) as PhpCall;
}

/** A result as stored: this checkout's path made neutral. */
export function canonicalResult(result: PhpResult): PhpResult {
  return JSON.parse(JSON.stringify(result).split(jsonInner(REPO_ROOT)).join(REPO_TOKEN)) as PhpResult;
}

function jsonInner(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

function firstDifference(stored: PhpCall[], wanted: PhpCall[]): string | null {
  const n = Math.max(stored.length, wanted.length);
  for (let i = 0; i < n; i++) {
    const a = stored[i] === undefined ? undefined : JSON.stringify(stored[i]);
    const b = wanted[i] === undefined ? undefined : JSON.stringify(wanted[i]);
    if (a !== b) {
      if (a === undefined)
        return `the test has ${wanted.length} calls, the fixture ${stored.length} (first new: ${b!.slice(0, 200)})`;
      if (b === undefined) return `the test has ${wanted.length} calls, the fixture ${stored.length}`;
      return `call #${i} differs:\n  fixture ${a.slice(0, 300)}\n  test    ${b.slice(0, 300)}`;
    }
  }
  return null;
}

function loadOrFail(name: string): GoldenFile {
  const f = load(name);
  if (!f)
    throw new Error(
      `PHP fixture ${relative(REPO_ROOT, fixturePath(name))} is missing; generate it with live PHP:\n  ${REGENERATE}`,
    );
  return f;
}

function load(name: string): GoldenFile | null {
  const path = fixturePath(name);
  if (!existsSync(path)) return null;
  const raw = JSON.parse(readFileSync(path, 'utf8')) as {
    name: string;
    php: string;
    note: string;
    cases: { case?: string; call: unknown; result: unknown }[];
  };
  return {
    name: raw.name,
    php: raw.php,
    note: raw.note,
    cases: raw.cases.map((c) => ({
      call: readable(c.call, '$text', '$bytes', false) as PhpCall,
      result: readable(c.result, 'text', 'str', false) as PhpResult,
      ...(c.case === undefined ? {} : { label: c.case }),
    })),
  };
}

let phpVersion: string | null = null;

function save(f: { name: string; note?: string; cases: GoldenCase[] }): void {
  phpVersion ??= execFileSync('php', ['-r', 'echo PHP_VERSION;']).toString('utf8');
  const header = {
    name: f.name,
    php: phpVersion,
    note: `Answers of PHP ${phpVersion} (php-cli) through scripts/oracle/call.php${f.note ? `; ${f.note}` : ''}.`,
    regenerate: REGENERATE,
  };
  const lines = f.cases.map((c) =>
    JSON.stringify({
      ...(c.label === undefined ? {} : { case: c.label }),
      call: readable(c.call, '$bytes', '$text', true),
      result: readable(canonicalResult(c.result), 'str', 'text', true),
    }),
  );
  const head = JSON.stringify(header, null, 2).replace(/\n}$/, '');
  const text = `${head},\n  "cases": [\n${lines.map((l) => '    ' + l).join(',\n')}\n  ]\n}\n`;
  const path = fixturePath(f.name);
  mkdirSync(dirname(path), { recursive: true });
  const old = existsSync(path) ? readFileSync(path, 'utf8') : null;
  if (old !== text) writeFileSync(path, text);
  // The regeneration script lists fixtures no test wrote any more.
  if (process.env.PHP_FIXTURES_TOUCHED) appendFileSync(process.env.PHP_FIXTURES_TOUCHED, f.name + '\n');
}

/**
 * Rewrites single-key objects {from: v} to {to: v'}: base64 to text when writing (only where the
 * bytes are valid UTF-8, so nothing is lost), text to base64 when reading.
 */
function readable(v: unknown, from: string, to: string, encode: boolean): unknown {
  if (Array.isArray(v)) return v.map((x) => readable(x, from, to, encode));
  if (v === null || typeof v !== 'object') return v;
  const entries = Object.entries(v);
  if (entries.length === 1 && entries[0][0] === from && typeof entries[0][1] === 'string') {
    const s = entries[0][1];
    if (!encode) return { [to]: Buffer.from(s, 'utf8').toString('base64') };
    const bytes = Buffer.from(s, 'base64');
    const text = bytes.toString('utf8');
    return Buffer.from(text, 'utf8').equals(bytes) ? { [to]: text } : v;
  }
  return Object.fromEntries(entries.map(([k, x]) => [k, readable(x, from, to, encode)]));
}

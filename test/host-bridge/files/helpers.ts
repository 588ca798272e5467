import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'vitest';
import { FileError, type FileCode } from '../../../src/host-adapters/files/errors.js';
import { TenantFiles, type TenantFilesOptions } from '../../../src/host-adapters/files/tenant-files.js';
import { type VirtualPath, parseVirtualPath } from '../../../src/host-adapters/files/virtual-path.js';

export const vp = (s: string): VirtualPath => parseVirtualPath(s);
export const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
export const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

export interface Sandbox {
  base: string;
  /** Tenant A's rootDir. */
  a: string;
  /** Tenant B's rootDir (victim). */
  b: string;
  canaryFile: string;
  cleanup(): Promise<void>;
}

export const CANARY = 'CANARY-OF-TENANT-B';

/** Two tenants under one temp dir; tenant B holds user/secret/canary.txt. */
export async function makeSandbox(): Promise<Sandbox> {
  const base = await fsp.mkdtemp(path.join(os.tmpdir(), 'smartcage-files-'));
  const a = path.join(base, 'tenantA');
  const b = path.join(base, 'tenantB');
  await fsp.mkdir(path.join(a, 'user'), { recursive: true });
  await fsp.mkdir(path.join(b, 'user', 'secret'), { recursive: true });
  const canaryFile = path.join(b, 'user', 'secret', 'canary.txt');
  await fsp.writeFile(canaryFile, CANARY);
  return { base, a, b, canaryFile, cleanup: () => fsp.rm(base, { recursive: true, force: true }) };
}

export function tenant(rootDir: string, o: Partial<TenantFilesOptions> = {}): TenantFiles {
  return new TenantFiles({ rootDir, quotaBytes: 10 * 1024 * 1024, maxReadBytes: 1024 * 1024, maxEntries: 1000, ...o });
}

/** Snapshot of a directory tree: relative path -> content (files) or 'DIR' / 'LINK:target'. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string): void => {
    for (const name of fs.readdirSync(d)) {
      const full = path.join(d, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = fs.lstatSync(full);
      if (st.isSymbolicLink()) out[r] = 'LINK:' + fs.readlinkSync(full);
      else if (st.isDirectory()) {
        out[r] = 'DIR';
        walk(full, r);
      } else out[r] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(dir, '');
  return out;
}

/** Await `p`, require a FileError with `code`, and check no real host path leaked into it. */
export async function expectFileError(p: Promise<unknown>, code: FileCode, sb?: Sandbox): Promise<FileError> {
  let err: unknown;
  try {
    await p;
  } catch (e) {
    err = e;
  }
  if (!(err instanceof FileError))
    throw new Error(`expected FileError ${code}, got ${err === undefined ? 'success' : String(err)}`);
  expect(err.code).toBe(code);
  noLeak(err, sb);
  return err;
}

export function noLeak(err: unknown, sb?: Sandbox): void {
  const text = JSON.stringify({ ...(err as object), message: (err as Error).message, stack: undefined });
  expect(text).not.toContain(os.tmpdir() + '/smartcage-files-');
  if (sb) expect(text).not.toContain(sb.base);
  expect(text).not.toContain('/proc/self/fd');
  expect((err as Error).message).not.toContain('/proc/');
  expect((err as { cause?: unknown }).cause).toBeUndefined();
}

export const MODES = ['procfd', 'lstat'] as const;

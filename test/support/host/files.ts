/**
 * The test host's files adapter for plugin examples and fixtures: real files in a temporary
 * folder, one folder per tenant holding the virtual roots (user, ltd, temp, g, a, topics,
 * member/ext...), seeded with the files the plugin examples use. Removed when the process exits.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { HostAdapters, HostResolver } from '../../../src/host-api/host.js';
import { TenantFiles, type TenantFilesOptions } from '../../../src/host-adapters/files/tenant-files.js';

/** The temporary upload the copy_s3_temp_file example copies (tenant "default"). */
export const EXAMPLE_UPLOAD_ID = 'files/temp/upload/default/0b6f1d2e-3c4a-4b5c-8d9e-0f1a2b3c4d5e.txt';
export const STORAGE_BASE_URL = 'https://files.example.com';
export const STORAGE_KEY = new TextEncoder().encode('test-storage-url-key-0123456789');

const ROOT_FOLDERS = ['user', 'ltd', 'temp', 'g', 'a', 'd', 'topics', 'inquiry', 'member/ext'];

/** Files every tenant starts with: virtual path -> content. */
const EXAMPLE_FILES: Record<string, string> = {
  '/files/user/example/notes.txt': 'first line\nsecond line\n',
  '/files/user/example/members.csv': 'id,name\n1,Alice\n2,"Bob, Jr."\n',
  '/files/user/example/events.jsonl': '{"id":1,"type":"open"}\n{"id":2,"type":"click"}\n',
  '/files/user/example/sub/deep.txt': 'deep\n',
  '/files/g/example/report.txt': 'report\n',
  [`/${EXAMPLE_UPLOAD_ID}`]: 'uploaded\n',
};

export interface FilesTestHost {
  /** The adapters of tenant "default" (the test renders' tenant). */
  adapters: Partial<HostAdapters>;
  /** The adapters of one tenant: its own folder. */
  of(tenant: string): Partial<HostAdapters>;
  /** Every tenant's, per render. */
  host: HostResolver;
  /** Real folder of a tenant (created on first use). */
  rootOf(tenant: string): string;
  base: string;
  cleanup(): void;
}

export interface FilesTestHostOptions {
  limits?: Partial<Pick<TenantFilesOptions, 'quotaBytes' | 'maxReadBytes' | 'maxEntries' | 'maxStorageEntries'>>;
  /** Seed EXAMPLE_FILES into each tenant's folder (default true). */
  seed?: boolean;
}

export function createFilesTestHost(o: FilesTestHostOptions = {}): FilesTestHost {
  const base = mkdtempSync(join(tmpdir(), 'smartcage-test-files-'));
  const instances = new Map<string, TenantFiles>();
  const rootOf = (tenant: string): string => {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(tenant)) throw new Error('bad tenant name');
    const root = join(base, tenant);
    if (!instances.has(tenant)) {
      for (const f of ROOT_FOLDERS) mkdirSync(join(root, f), { recursive: true });
      if (o.seed !== false) {
        for (const [vp, content] of Object.entries(EXAMPLE_FILES)) {
          const real = join(root, vp.slice('/files/'.length).replace(/\/default\//, `/${tenant}/`));
          mkdirSync(dirname(real), { recursive: true });
          writeFileSync(real, content);
        }
      }
      instances.set(
        tenant,
        new TenantFiles({
          rootDir: root,
          quotaBytes: 10 * 1024 * 1024,
          maxReadBytes: 1024 * 1024,
          maxEntries: 1000,
          ...o.limits,
        }),
      );
    }
    return root;
  };
  const cleanup = () => rmSync(base, { recursive: true, force: true });
  process.once('exit', cleanup);
  const of = (tenant: string): Partial<HostAdapters> => {
    rootOf(tenant);
    return {
      files: instances.get(tenant)!,
      storageUrls: {
        baseUrl: () => STORAGE_BASE_URL,
        signingKey: async () => STORAGE_KEY,
      },
    };
  };
  return { base, rootOf, cleanup, of, adapters: of('default'), host: (identity) => of(identity.tenant) };
}

/** Storage for every tenant of the test host: a tenant's adapters. */
export function filesTestAdapter(): (tenant: string) => Partial<HostAdapters> {
  return createFilesTestHost().of;
}

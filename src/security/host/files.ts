/**
 * The harness host's files adapter: real tenant folders under the canary scratch dir, beside the
 * outside canary file, with traps planted in the attacking tenant's storage (docs/security.md FS-06):
 *
 *   tenants/default/user/link-file      -> the outside canary file
 *   tenants/default/user/link-dir       -> the scratch dir holding the outside file
 *   tenants/default/user/link-victim    -> the victim tenant's /files/user
 *   tenants/default/user/loop           -> itself's parent (a symlink loop)
 *   tenants/default/user/hard.txt       == a HARD link to the outside file (when the fs allows)
 *   tenants/default/g/link-g            -> the scratch dir
 *   tenants/default/temp/link-temp      -> the scratch dir
 *   tenants/victim/user/private/canary.txt  holds the outside canary text (another tenant's file)
 *
 * Read detection beyond "the content never shows": the outside file's access time is set far in
 * the past; with the usual relatime/strictatime mounts the first read moves it. A self-test on a
 * separate probe file decides whether the mount reports reads at all; `outsideFileTouched()`
 * reports 'touched' (and calls CanaryState.touch) when a read happened, 'unavailable' when the
 * mount cannot tell (noatime). Every render that resolves the harness host checks it too.
 */
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { HostAdapters } from '../../host-api/host.js';
import { TenantFiles } from '../../host-adapters/files/tenant-files.js';
import type { CanaryState } from './state.js';

/** Limits of the harness tenants (FS-10, FS-11 and HH-12 rely on them). */
export const HARNESS_FILE_LIMITS = {
  quotaBytes: 1024 * 1024,
  maxReadBytes: 256 * 1024,
  maxEntries: 2000,
  maxStorageEntries: 5000,
} as const;

const ROOT_FOLDERS = ['user', 'ltd', 'temp', 'g', 'a', 'd', 'topics', 'inquiry', 'member/ext'];
const OLD_ATIME = 1_000_000; // 1970-01-12: any read moves it under relatime

interface Active {
  state: CanaryState;
  tenantsDir: string;
  rootOf(tenant: string): string;
  atimeWorks: boolean;
  touched: boolean;
  /** Names directly in the scratch dir at set-up (nothing may be added there). */
  scratchNames: string[];
}

let active: Active | undefined;

function atime(path: string): number {
  return statSync(path).atimeMs;
}

function selfTestAtime(dir: string): boolean {
  const probe = join(dir, 'atime-probe.txt');
  writeFileSync(probe, 'probe');
  utimesSync(probe, OLD_ATIME, Date.now() / 1000);
  const fd = openSync(probe, 'r');
  try {
    readSync(fd, Buffer.alloc(5), 0, 5, 0);
  } finally {
    closeSync(fd);
  }
  return atime(probe) !== OLD_ATIME * 1000;
}

/** Has the outside canary file been read since set-up? Calls CanaryState.touch once when it has. */
export function outsideFileTouched(): 'untouched' | 'touched' | 'unavailable' {
  if (!active) return 'unavailable';
  if (!active.touched && active.atimeWorks && atime(active.state.outsideFilePath) !== OLD_ATIME * 1000) {
    active.touched = true;
    active.state.touch('the outside canary file was read');
  }
  if (active.touched) return 'touched';
  return active.atimeWorks ? 'untouched' : 'unavailable';
}

/** Names added to the scratch dir beside the tenants since set-up (writes that escaped). */
export function scratchDirAdditions(): string[] {
  if (!active) return [];
  const before = new Set(active.scratchNames);
  return readdirSync(active.state.dir).filter((n) => !before.has(n));
}

/** For case set-up ("an operator put this there"): the real folder of a tenant's storage. */
export function harnessTenantRoot(tenant: string): string | undefined {
  return active?.rootOf(tenant);
}

/** The scratch dir holding the outside file (targets for planted links). */
export function harnessScratchDir(): string | undefined {
  return active?.state.dir;
}

/** The harness's storage: each tenant's adapters get that tenant's TenantFiles. */
export async function filesAdapter(c: CanaryState): Promise<(tenant: string) => Partial<HostAdapters>> {
  const tenantsDir = join(c.dir, 'tenants');
  const instances = new Map<string, TenantFiles>();
  const rootOf = (tenant: string): string => {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(tenant)) throw new Error('bad tenant name');
    const root = join(tenantsDir, tenant);
    if (!instances.has(tenant)) {
      for (const f of ROOT_FOLDERS) mkdirSync(join(root, f), { recursive: true });
      instances.set(tenant, new TenantFiles({ rootDir: root, ...HARNESS_FILE_LIMITS }));
    }
    return root;
  };
  const attacker = rootOf('default');
  const victim = rootOf('victim');
  const victimFile = join(victim, 'user/private/canary.txt');
  mkdirSync(dirname(victimFile), { recursive: true });
  writeFileSync(victimFile, c.outsideFileContent);
  const plant = (target: string, at: string) => {
    try {
      symlinkSync(target, join(attacker, at));
    } catch {
      /* already planted */
    }
  };
  plant(c.outsideFilePath, 'user/link-file');
  plant(c.dir, 'user/link-dir');
  plant(join(victim, 'user'), 'user/link-victim');
  plant('..', 'user/loop');
  plant(c.dir, 'g/link-g');
  plant(c.dir, 'temp/link-temp');
  try {
    linkSync(c.outsideFilePath, join(attacker, 'user/hard.txt'));
  } catch {
    /* another filesystem: no hard link trap */
  }
  const atimeWorks = selfTestAtime(c.dir);
  // Set after the self-test and after every set-up step that could have read it.
  utimesSync(c.outsideFilePath, OLD_ATIME, Date.now() / 1000);
  active = { state: c, tenantsDir, rootOf, atimeWorks, touched: false, scratchNames: readdirSync(c.dir) };
  return (tenant) => {
    rootOf(tenant);
    return {
      files: instances.get(tenant)!,
      storageUrls: {
        baseUrl: () => 'https://files.example.com',
        signingKey: async () => new TextEncoder().encode('harness-storage-url-signing-key!'),
      },
    };
  };
}

/**
 * The openat emulation: how a tenant's storage reaches a name below its real root without ever
 * following a symbolic link or leaving the root. Every file operation, walk and quota scan goes
 * through here.
 *
 * Symlinks (FS-06) and the check-then-use race (FS-07)
 * ----------------------------------------------------
 * Node has no openat()/openat2(). On Linux this module gets the same effect from procfs: it opens
 * the real root as a directory handle, then walks one component at a time by opening
 * `/proc/self/fd/<parent fd>/<component>` with O_DIRECTORY|O_NOFOLLOW. The kernel resolves
 * `/proc/self/fd/N` to exactly the directory the handle holds, whatever happened to its path
 * since, and O_NOFOLLOW refuses a symlink as the last component. So every lookup is relative to an
 * already-verified directory and never follows a link: swapping a directory for a symlink between
 * steps gives ELOOP/ENOTDIR (E_PATH_DENIED), never the link's target. Files are opened, created,
 * renamed, unlinked and listed the same way (`/proc/self/fd/<dir fd>/<name>`). After a file is
 * opened, `readlink(/proc/self/fd/<file fd>)` must still lie inside the real root (belt and
 * braces). Any symlink on the way, including the last component, is E_PATH_DENIED.
 *
 * Where /proc is not usable (mode 'lstat', e.g. macOS: development only), each component is
 * lstat-checked, the final component is opened with O_NOFOLLOW, and after open every component is
 * lstat-checked again, the file's fstat dev/ino must equal the lstat of the path, and the
 * components are checked once more. Static symlinks are always refused, but this mode is NOT
 * race-free: an attacker who can swap a directory for a link and back fast enough can win the
 * window between the checks (the FS-07 test measures it), and path-based mkdir/rename/unlink are
 * racy too. On Linux 'auto' therefore refuses to fall back to it.
 *
 * Regular files only: FIFOs, sockets and devices are E_PATH_DENIED (opened O_NONBLOCK so a FIFO
 * cannot hang the open).
 */

import { constants as C, type Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { FileError, errno, isDirectoryFailure, notRegularDenied, symlinkDenied, translateFsError } from './errors.js';
import type { VirtualPath } from './virtual-path.js';

/** 'procfd': fd-relative through /proc/self/fd (Linux; race-free). 'lstat': portable, NOT race-free. */
export type ResolutionMode = 'procfd' | 'lstat';

/** A directory already proven to lie below the real root. */
export interface DirRef {
  /** A name for the directory itself usable by fs calls. */
  readonly self: string;
  /** Real segments below the real root (for the lstat-mode re-walk). */
  readonly rel: readonly string[];
  child(name: string): string;
  sync(): Promise<void>;
  close(): Promise<void>;
}

class FdDir implements DirRef {
  readonly self: string;
  constructor(
    readonly fh: FileHandle,
    readonly rel: readonly string[],
  ) {
    this.self = `/proc/self/fd/${fh.fd}`;
  }
  child(name: string): string {
    return `${this.self}/${name}`;
  }
  async sync(): Promise<void> {
    await this.fh.sync();
  }
  async close(): Promise<void> {
    await this.fh.close().catch(() => undefined);
  }
}

class PathDir implements DirRef {
  constructor(
    readonly self: string,
    readonly rel: readonly string[],
  ) {}
  child(name: string): string {
    return `${this.self}/${name}`;
  }
  async sync(): Promise<void> {
    const fh = await fsp.open(this.self, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  }
  async close(): Promise<void> {}
}

/**
 * Where a folder this resolution makes is counted (the storage's entry quota, quota.ts): before it
 * is made, and given back when the mkdir fails.
 */
export interface EntryCount {
  reserveEntries(n: number, p: VirtualPath): void;
  releaseEntries(n: number): void;
}

export interface OpenAtOptions {
  /** 'auto': 'procfd' on Linux (an error if /proc is not usable there), 'lstat' elsewhere. */
  mode: 'auto' | ResolutionMode;
  fileMode: number;
  dirMode: number;
}

/** Real segments of a virtual path below the real root: the root folder mirrors the virtual root without `/files/`. */
export function realSegments(p: VirtualPath): string[] {
  return [...p.root.slice('/files/'.length).split('/'), ...p.segments];
}

/** Resolution below one real root. Errors name the virtual path `p` each call is made for, never a real path. */
export class OpenAt {
  private constructor(
    readonly realRoot: string,
    readonly mode: ResolutionMode,
    private readonly o: OpenAtOptions,
  ) {}

  /** Resolve `rootDir` (it may itself be reached through a link the operator made) and pick the mode. */
  static async open(rootDir: string, o: OpenAtOptions): Promise<OpenAt> {
    let realRoot: string;
    try {
      realRoot = await fsp.realpath(rootDir);
      const st = await fsp.stat(realRoot);
      if (!st.isDirectory()) throw new Error('not a directory');
    } catch {
      // Operator configuration error; still no real path in the message.
      throw new FileError('E_FILE_FAILED', '/files', 'tenant storage is not available', { reason: 'root-unavailable' });
    }
    if (realRoot === '/')
      throw new FileError('E_FILE_FAILED', '/files', 'tenant storage may not be /', { reason: 'root-unavailable' });
    let mode: ResolutionMode = 'lstat';
    if (o.mode !== 'lstat' && process.platform === 'linux') {
      try {
        const fh = await fsp.open(realRoot, C.O_RDONLY | C.O_DIRECTORY);
        try {
          if ((await fsp.readlink(`/proc/self/fd/${fh.fd}`)) === realRoot) mode = 'procfd';
        } finally {
          await fh.close();
        }
      } catch {
        /* no procfs */
      }
    }
    // Fail closed: on Linux the race-free mode is required unless 'lstat' was asked for explicitly.
    if ((o.mode === 'procfd' || (o.mode === 'auto' && process.platform === 'linux')) && mode !== 'procfd') {
      throw new FileError('E_FILE_FAILED', '/files', '/proc/self/fd is not usable', { reason: 'no-procfs' });
    }
    return new OpenAt(realRoot, mode, o);
  }

  async openRoot(): Promise<DirRef> {
    if (this.mode === 'procfd')
      return new FdDir(await fsp.open(this.realRoot, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW), []);
    return new PathDir(this.realRoot, []);
  }

  /**
   * Step from `dir` into its subdirectory `seg` without following links. Does not close `dir`.
   * With `create`, a missing folder is made, counted there first.
   */
  async descend(dir: DirRef, seg: string, p: VirtualPath, create?: EntryCount): Promise<DirRef> {
    const target = dir.child(seg);
    const classify = async (e: unknown): Promise<FileError> => {
      const code = errno(e);
      if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'EEXIST') {
        const st = await fsp.lstat(target).catch(() => undefined);
        if (st?.isSymbolicLink() || code === 'ELOOP') return symlinkDenied(p.text, code);
        if (st && !st.isDirectory()) {
          return create
            ? new FileError('E_FILE_FAILED', p.text, 'a file is in the way of a folder', {
                reason: 'not-a-directory',
                sysCode: code,
              })
            : new FileError('E_FILE_NOT_FOUND', p.text, 'no such file or directory', {
                reason: 'not-found',
                sysCode: code,
              });
        }
      }
      return translateFsError(e, p, 'open');
    };
    if (this.mode === 'procfd') {
      const flags = C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW;
      try {
        return new FdDir(await fsp.open(target, flags), [...dir.rel, seg]);
      } catch (e) {
        if (!create || errno(e) !== 'ENOENT') throw await classify(e);
      }
      create.reserveEntries(1, p);
      try {
        await fsp.mkdir(target, this.o.dirMode);
      } catch (e) {
        create.releaseEntries(1);
        if (errno(e) !== 'EEXIST') throw await classify(e);
      }
      try {
        return new FdDir(await fsp.open(target, flags), [...dir.rel, seg]);
      } catch (e) {
        throw await classify(e);
      }
    }
    // lstat mode
    let st: Stats | unknown = await fsp.lstat(target).catch((e: unknown) => e);
    if (!isStats(st)) {
      if (!create || errno(st) !== 'ENOENT') throw translateFsError(st, p, 'lstat');
      create.reserveEntries(1, p);
      try {
        await fsp.mkdir(target, this.o.dirMode);
      } catch (e) {
        create.releaseEntries(1);
        if (errno(e) !== 'EEXIST') throw translateFsError(e, p, 'mkdir');
      }
      st = await fsp.lstat(target).catch((e: unknown) => e);
      if (!isStats(st)) throw translateFsError(st, p, 'lstat');
    }
    if (st.isSymbolicLink()) throw symlinkDenied(p.text);
    if (!st.isDirectory()) {
      throw create
        ? new FileError('E_FILE_FAILED', p.text, 'a file is in the way of a folder', { reason: 'not-a-directory' })
        : new FileError('E_FILE_NOT_FOUND', p.text, 'no such file or directory', { reason: 'not-found' });
    }
    return new PathDir(target, [...dir.rel, seg]);
  }

  /** Open the directory named by real segments `segs` (below the real root). */
  async openDir(segs: readonly string[], p: VirtualPath, create?: EntryCount): Promise<DirRef> {
    let dir = await this.openRoot();
    try {
      for (const seg of segs) {
        const next = await this.descend(dir, seg, p, create);
        await dir.close();
        dir = next;
      }
      return dir;
    } catch (e) {
      await dir.close();
      throw translateFsError(e, p, 'open');
    }
  }

  /** Open the parent directory of a file path. */
  async parentOf(p: VirtualPath, create?: EntryCount): Promise<{ dir: DirRef; name: string }> {
    const segs = realSegments(p);
    const name = segs.pop() as string;
    return { dir: await this.openDir(segs, p, create), name };
  }

  /** lstat-mode re-walk: every component a real directory, no links. */
  async rewalkOk(rel: readonly string[]): Promise<boolean> {
    let path = this.realRoot;
    for (const seg of rel) {
      path = `${path}/${seg}`;
      const st = await fsp.lstat(path).catch(() => undefined);
      if (!st || st.isSymbolicLink() || !st.isDirectory()) return false;
    }
    return true;
  }

  /**
   * Open `name` in `dir` (never following a link), then prove the opened file is inside the root.
   * Returns the handle and its fstat; regular files only.
   */
  async openFile(dir: DirRef, name: string, flags: number, p: VirtualPath): Promise<{ fh: FileHandle; st: Stats }> {
    // lstat mode: a legitimate concurrent replacement (rename over the file) also changes the
    // inode between open and re-check. Each attempt is verified on its own, so retrying is safe.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.openFileOnce(dir, name, flags, p);
      } catch (e) {
        if (!(
          this.mode === 'lstat' &&
          attempt < 3 &&
          (flags & C.O_CREAT) === 0 &&
          e instanceof FileError &&
          e.reason === 'path-changed'
        ))
          throw e;
      }
    }
  }

  private async openFileOnce(
    dir: DirRef,
    name: string,
    flags: number,
    p: VirtualPath,
  ): Promise<{ fh: FileHandle; st: Stats }> {
    const target = dir.child(name);
    if (this.mode === 'lstat') {
      const pre = await fsp.lstat(target).catch(() => undefined);
      if (pre?.isSymbolicLink()) throw symlinkDenied(p.text);
    }
    let fh: FileHandle;
    try {
      fh = await fsp.open(target, flags | C.O_NOFOLLOW | C.O_NONBLOCK, this.o.fileMode);
    } catch (e) {
      const code = errno(e);
      if (code === 'ELOOP') throw symlinkDenied(p.text, code);
      if (code === 'ENXIO' || code === 'ENODEV') throw notRegularDenied(p.text, code);
      throw translateFsError(e, p, 'open');
    }
    try {
      const st = await fh.stat();
      if (st.isDirectory()) throw isDirectoryFailure(p.text);
      if (!st.isFile()) throw notRegularDenied(p.text);
      if (this.mode === 'procfd') {
        const real = await fsp.readlink(`/proc/self/fd/${fh.fd}`).catch(() => '');
        if (!real.startsWith(this.realRoot + '/'))
          throw new FileError('E_PATH_DENIED', p.text, 'the file is outside the tenant storage', {
            reason: 'escaped-root',
          });
      } else {
        // Best effort only (see header): re-walk, compare the inode, re-walk again. A path that is
        // a link at the comparison but not at either re-walk still gets through.
        const ok = await this.rewalkOk(dir.rel);
        const post = ok ? await fsp.lstat(target).catch(() => undefined) : undefined;
        const ok2 = post ? await this.rewalkOk(dir.rel) : false;
        if (!post || !ok2 || post.isSymbolicLink() || post.dev !== st.dev || post.ino !== st.ino) {
          throw new FileError('E_PATH_DENIED', p.text, 'the path changed while it was opened', {
            reason: 'path-changed',
          });
        }
      }
      return { fh, st };
    } catch (e) {
      await fh.close().catch(() => undefined);
      throw e;
    }
  }
}

function isStats(v: unknown): v is Stats {
  return typeof v === 'object' && v !== null && !(v instanceof Error) && 'isSymbolicLink' in v;
}

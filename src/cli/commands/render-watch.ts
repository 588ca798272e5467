/**
 * `smartcage render --watch`: render, then render again whenever what the render reads changes,
 * until Ctrl-C. Change is told by the files themselves, not by the events: after each render the
 * modification time and size of every watched file is kept, and an event (debounced) renders
 * again only when that picture differs. So an editor that writes a file three times gives one
 * render, and a render that writes the site's database itself (a session, a counter) gives none.
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { filesPicture } from '../../site/watched-files.js';
import { EXIT } from '../exit-codes.js';

export interface WatchOptions {
  /**
   * Files and folders (a folder with all it holds) whose change renders again, asked after each
   * render: a render may read a file the last did not (an {include} just written).
   */
  paths(): readonly string[];
  /** One render: writes its output and diagnostics, returns its exit status. */
  render(): Promise<number>;
  /** Quiet time after the last event before the files are compared (default 40 ms). */
  debounceMs?: number;
  /** Ends the watch (tests); SIGINT and SIGTERM end it too. */
  signal?: AbortSignal;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
}

/**
 * The folder to watch for a path: a folder itself (with its subfolders), a file through its
 * folder, since editors replace a file by renaming a new one over it, which ends a watch of the
 * file itself. A path that does not exist yet is watched through the nearest folder that does.
 */
function watchTarget(p: string): { dir: string; recursive: boolean } | undefined {
  let target = path.resolve(p);
  for (;;) {
    try {
      if (statSync(target).isDirectory()) return { dir: target, recursive: target === path.resolve(p) };
      return { dir: path.dirname(target), recursive: false };
    } catch {
      const up = path.dirname(target);
      if (up === target) return undefined;
      target = up;
    }
  }
}

export async function watchRender(o: WatchOptions): Promise<number> {
  const stdout = o.stdout ?? process.stdout;
  const stderr = o.stderr ?? process.stderr;
  const debounceMs = o.debounceMs ?? 40;
  const status = (text: string) =>
    // On a terminal the status line is rewritten in place; in a pipe or a log each is a line.
    stderr.write(stderr.isTTY ? `\r\u001b[K${text}` : `${text}\n`);

  let picture = '';
  let renders = 0;
  let timer: NodeJS.Timeout | undefined;
  let check = (): void => {};
  const onEvent = () => {
    clearTimeout(timer);
    timer = setTimeout(() => check(), debounceMs);
  };
  // One watcher per folder, added as the render's files are known.
  const watchers = new Map<string, FSWatcher>();
  const watchAll = () => {
    for (const p of o.paths()) {
      const t = watchTarget(p);
      const key = t && `${t.recursive ? 'r' : 'f'}:${t.dir}`;
      if (!t || !key || watchers.has(key)) continue;
      try {
        const w = watch(t.dir, { recursive: t.recursive }, onEvent);
        w.on('error', () => {});
        watchers.set(key, w);
      } catch {
        // gone since: the next render looks again
      }
    }
  };
  const renderNow = async (): Promise<void> => {
    // On a terminal each render replaces the last one on the screen.
    if (stdout.isTTY && renders > 0) stdout.write('\u001b[2J\u001b[3J\u001b[H');
    const t0 = performance.now();
    const code = await o.render();
    const ms = Math.round(performance.now() - t0);
    renders++;
    picture = filesPicture(o.paths());
    watchAll();
    const at = new Date().toTimeString().slice(0, 8);
    const what = code === EXIT.OK ? `rendered in ${ms} ms` : `failed (exit ${code}) in ${ms} ms`;
    status(
      `${stdout.isTTY ? '\n' : ''}smartcage render --watch: ${what} at ${at}; watching for changes (Ctrl-C stops)`,
    );
  };

  await renderNow();
  return new Promise<number>((resolve) => {
    let running: Promise<void> | undefined;
    let again = false;
    check = () => {
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        do {
          again = false;
          if (filesPicture(o.paths()) !== picture) await renderNow();
        } while (again);
      })().finally(() => (running = undefined));
    };
    const stop = () => {
      clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      if (stderr.isTTY) stderr.write('\n');
      void (running ?? Promise.resolve()).then(() => resolve(EXIT.OK));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (o.signal?.aborted) stop();
    else o.signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * The embedding process's heap as it is after a full collection: what the host holds, not the
 * garbage V8 has not collected yet. How much garbage is still around depends on when V8's
 * heuristics last ran a full GC (they count external buffers, so a transport that allocates less
 * leaves more garbage in `heapUsed` between collections); a case that asks whether the host keeps
 * what a template sent must not pass or fail on that.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/**
 * Two full collections: what the first finds dead may still hold objects a weak callback or
 * finaliser releases, which only the second reclaims (HH-02 read 17 MB more after one than after
 * two, and the same after two on either transport).
 */
function fullGc(): void {
  if (!collect) {
    // A context made after the flag is set has `gc`; the process's own globals do not change.
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
  collect();
}

/** heapUsed in bytes after a full garbage collection. */
export function retainedHeap(): number {
  fullGc();
  return process.memoryUsage().heapUsed;
}

/**
 * Shared pieces of the files plugins (read_file, read_dir, write_file, put_file, save_file,
 * remove_file, remove_dir, rename_file, storage_url, copy_s3_temp_file).
 *
 * Every path goes through `checkPluginPath(plugin, attr, value)` (src/host-adapters/files/
 * plugin-roots.ts) before any I/O, and every I/O goes through the tenant's FileStore
 * (files/file-store.ts: confined to the tenant, quota, atomic writes; the store enforces them,
 * not these plugins). The tenant always comes from the render's identity, never from an attribute.
 *
 * status_var semantics (decision, one rule for every files plugin that has a status_var):
 *  - success: `true`;
 *  - a failure of the operation itself (the file does not exist, a folder is not empty, a file is
 *    in the way): `false`, plus a warning line in the render log naming the virtual path;
 *  - a REFUSAL (E_PATH_DENIED, E_BAD_ATTRIBUTE, E_BAD_COMBINATION, E_PERMISSION_DENIED, E_QUOTA,
 *    E_SIZE_LIMIT, regex errors): always an error, status_var or not. The one exception is
 *    copy_s3_temp_file, whose row in the spec's Errors table says a disallowed file_id/dest_path
 *    only sets status_var to false (see that plugin).
 *  - Without status_var, a failure of the operation is an error (nothing fails silently).
 * The spec gives `false` as copy_s3_temp_file's failure value; the same true/false pair is used for
 * the others (the spec shows none for them).
 */
import { randomUUID } from 'node:crypto';
import type { BridgeCall, HostResult } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { FileError } from '../../host-adapters/files/errors.js';
import { checkPluginPath, GENERATED_PATH_ROOT } from '../../host-adapters/files/plugin-roots.js';
import type { FileStore } from '../../host-adapters/files/file-store.js';
import { parseVirtualPath, type VirtualPath } from '../../host-adapters/files/virtual-path.js';
import type { Value } from '../../value/value.js';
import { missingAdapter } from '../../host-api/capabilities.js';

export function tenantFiles(call: BridgeCall, plugin: string): FileStore {
  const files = call.host.files;
  if (!files) throw missingAdapter(`{${plugin}}`, 'files');
  return files;
}

/** The attribute as a path checked against the plugin's root rule (E_PATH_DENIED otherwise). */
export function pathAttr(plugin: string, attr: string, attrs: Record<string, Value>): VirtualPath {
  const v = attrs[attr];
  if (v === undefined || v === null || v === '')
    throw new BridgeError('E_BAD_ATTRIBUTE', `{${plugin}} needs the attribute ${attr}`);
  return checkPluginPath(plugin, attr, v);
}

/** Given and not empty? (Template attributes left empty count as absent, as in PHP's `empty()`.) */
export function given(v: Value | undefined): boolean {
  return v !== undefined && v !== null && v !== '';
}

/** A fresh host-chosen name under the temporary area (write_file without path, save_file). */
export function generatedPath(): VirtualPath {
  return parseVirtualPath(`${GENERATED_PATH_ROOT}/${randomUUID()}`);
}

/**
 * bucket: the host models one storage per tenant. An empty bucket means "the tenant's own"; any
 * named bucket is refused (it could name another tenant's storage).
 */
export function checkBucket(plugin: string, attrs: Record<string, Value>): void {
  if (given(attrs.bucket))
    throw new FileError(
      'E_PATH_DENIED',
      String(attrs.bucket),
      "only the site's own storage is available (leave bucket empty)",
      { plugin, attr: 'bucket', reason: 'bucket' },
    );
}

/** Codes that are refusals: never turned into status_var=false. */
const REFUSALS = new Set(['E_PATH_DENIED', 'E_QUOTA', 'E_SIZE_LIMIT']);

export function isOperationFailure(e: unknown): e is FileError {
  return e instanceof FileError && !REFUSALS.has(e.code);
}

/**
 * Run a side-effecting operation with the status_var rule above: `true` on success; `false` plus a
 * warning for an operation failure when status_var is given; an error otherwise.
 */
export async function withStatus(attrs: Record<string, Value>, op: () => Promise<void>): Promise<HostResult> {
  const statusVar = given(attrs.status_var) ? String(attrs.status_var) : null;
  try {
    await op();
  } catch (e) {
    if (statusVar !== null && isOperationFailure(e)) {
      return { assign: [[statusVar, false]], log: [{ level: 'warning', message: e.message }] };
    }
    throw e;
  }
  return statusVar !== null ? { assign: [[statusVar, true]] } : {};
}

/**
 * Destinations of the archive plugins: `/files/g/...` only (plugin-roots.ts), checked before any
 * work. Without `dest` the host chooses one (docs/decisions.md D78): next to a `/files/g/` source
 * where that names one, else a fresh name under DEFAULT_ARCHIVE_FOLDER.
 */
import { randomUUID } from 'node:crypto';
import { checkPluginPath } from '../../host-adapters/files/plugin-roots.js';
import { parseVirtualPath, type VirtualPath } from '../../host-adapters/files/virtual-path.js';
import type { Value } from '../../value/value.js';
import { given } from '../files/common.js';

const DEFAULT_ARCHIVE_FOLDER = '/files/g/archives';

/** `dest` checked against the plugin's rule, or null when it is not given. */
export function destAttr(plugin: string, attrs: Record<string, Value>): VirtualPath | null {
  return given(attrs.dest) ? checkPluginPath(plugin, 'dest', attrs.dest) : null;
}

/** A fresh path under DEFAULT_ARCHIVE_FOLDER, `suffix` appended (`.zip`, `.gz`, or '' for a folder). */
export function freshDest(suffix: string): VirtualPath {
  return parseVirtualPath(`${DEFAULT_ARCHIVE_FOLDER}/${randomUUID()}${suffix}`);
}

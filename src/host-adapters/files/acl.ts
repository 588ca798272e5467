/**
 * Who may read a stored object without a signed link: the one rule, derived from the virtual path
 * (spec, copy_s3_temp_file: "ACL (public/private) is derived from the destination path";
 * generate_pdf saves under files/g/private/ or files/g/public/). docs/decisions.md D72.
 *
 * Public: `/files/g/public` and below. Private: everything else (`/files/g/private/...`, the rest of
 * /files/g, /files/a, /files/temp...), so a path that names no visibility is never published.
 */
import { isUnder, type VirtualPath } from './virtual-path.js';

export type ObjectAcl = 'public-read' | 'private';

const PUBLIC_PREFIX = '/files/g/public';

export function objectAcl(p: VirtualPath): ObjectAcl {
  return isUnder(p, PUBLIC_PREFIX) ? 'public-read' : 'private';
}

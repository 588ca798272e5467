/**
 * Per plugin and per path attribute: which roots the template may name.
 *
 * Each rule is written from the plugin's row in the plugin reference ("Files and storage" table,
 * Limits table and calling convention 5). Where the reference says "not shown" or says nothing, the
 * CONSERVATIVE set was chosen (the smallest set that still lets the plugin do what its row
 * describes), and the decision is written next to the rule. Anything not listed here is denied:
 * an unknown plugin or attribute never gets a path.
 *
 * Calling convention 5: cloud storage paths begin with `/files/g/` or `/files/a/`; local file
 * storage is `/files/user/`, `/files/ltd/`, `/files/temp/`; `/files/d`, `/files/topics`,
 * `/files/inquiry`, `/files/member/ext` only where a plugin names them.
 *
 * Rules check ROOTS (and, for generate_pdf, a folder below a root). Permission rules that depend on
 * the content (read_file's ignore_permission for /files/topics and /files/member, ACLs derived from
 * copy_s3_temp_file's destination, the site key inside a temp-upload ID beyond its shape) are the
 * bridge's business; see `parseTempUploadId` for the shape check of copy_s3_temp_file's file_id.
 *
 * URL-or-path attributes (gzip.file_url, zip entries[].url, unzip.src, get_file.url): the bridge
 * decides first: a value starting with `https://` goes to the egress guard, anything else is a
 * path and goes through `checkPluginPath` (so `http://`, `file://`, `//host/x` are denied here).
 */

import { FileError } from './errors.js';
import { type LeadingSlash, type VirtualPath, isUnder, parseVirtualPath } from './virtual-path.js';

export interface PathRule {
  /** Allowed prefixes: a root from KNOWN_ROOTS or a folder below one (`/files/g/private`). */
  readonly roots: readonly string[];
  /** The plugin creates, changes or removes the file at this path. */
  readonly write: boolean;
  /** Default 'required'. */
  readonly leadingSlash?: LeadingSlash;
  /** May the path be an allowed prefix itself (e.g. read_dir on `/files/user`)? Default false. */
  readonly allowRoot?: boolean;
  /** Why the rule is what it is (spec quote or decision). */
  readonly note: string;
}

const CLOUD = ['/files/g', '/files/a'] as const;

export const PLUGIN_PATH_RULES: Readonly<Record<string, Readonly<Record<string, PathRule>>>> = {
  api: {
    files: {
      roots: ['/files/temp'],
      write: false,
      note: 'Spec: "Paths relative to the service\'s temporary folder". A relative entry is joined under /files/temp by the plugin; a /files/... entry must be under /files/temp (what dl_flg, write_file and save_file give back). Other roots: denied (decisions.md D90).',
    },
  },
  copy_s3_temp_file: {
    file_id: {
      roots: ['/files/temp'],
      write: false,
      leadingSlash: 'forbidden',
      note: 'Spec: an ID of the form files/temp/<service_dir>/{site_key}/{uuid}[.ext], written without a leading slash. The bridge must also call parseTempUploadId (shape + same site key).',
    },
    dest_path: {
      roots: ['/files/g', '/files/a', '/files/temp'],
      write: true,
      note: 'Spec: a cloud storage path (/files/g/, /files/a/) or under /files/temp/; local paths such as /files/user/ are unsupported. A root itself is not a file: denied.',
    },
  },
  get_file: {
    path: {
      roots: CLOUD,
      write: false,
      note: 'Spec: "cloud storage path"; convention 5: cloud paths begin with /files/g/ or /files/a/.',
    },
    save_path: {
      roots: ['/files/temp'],
      write: true,
      note: 'Spec: "Saved files go to the temporary area". Decision: save_path is only accepted under /files/temp.',
    },
  },
  put_file: {
    tmp_path: {
      roots: ['/files/temp'],
      write: false,
      note: 'Spec: "file in the temporary folder" (the source of the upload).',
    },
    path: {
      roots: CLOUD,
      write: true,
      note: 'Spec: destination in cloud/object storage. Decision: cloud roots only (local destinations use files_path).',
    },
    files_path: {
      roots: ['/files/user', '/files/ltd'],
      write: true,
      note: 'Spec: "path in local file storage under /files/ ...; allowed values: not shown". Conservative: /files/user and /files/ltd (the local storage roots of convention 5 minus the temporary area, which is the source side of this plugin).',
    },
  },
  save_file: {
    // No path attribute: the host chooses a unique name under GENERATED_PATH_ROOT and stores it in var.
  },
  write_file: {
    path: {
      roots: ['/files/temp', '/files/user', '/files/ltd'],
      write: true,
      note: 'Spec: "omitted: unique name in temporary area" (then the host generates it under GENERATED_PATH_ROOT). Decision: an explicit path may name the local file storage roots of convention 5 (/files/temp, /files/user, /files/ltd): security.md FS-10 treats /files/user/log.csv with is_append=1 as the legitimate use. Cloud roots are not local files: denied.',
    },
  },
  read_dir: {
    path: {
      roots: ['/files/user', '/files/ltd'],
      write: false,
      allowRoot: true,
      note: 'Spec: "/files/user or /files/ltd and subdirectories". The roots themselves may be listed.',
    },
  },
  read_file: {
    path: {
      roots: ['/files/user', '/files/ltd', '/files/temp', '/files/topics', '/files/member/ext'],
      write: false,
      note: 'Spec: "relative to /files/; accessible directories: not shown"; ignore_permission names /files/topics/ and /files/member/. Conservative: local storage (user, ltd, temp) plus the two roots the row names (member only as /files/member/ext, the documented root). Not /files/d, /files/inquiry, cloud roots. Decision: the path is written with its leading slash (/files/user/a.csv); the bare "user/a.csv" form is not accepted.',
    },
  },
  remove_dir: {
    path: {
      roots: ['/files/user', '/files/ltd'],
      write: true,
      note: 'Spec: "Removes a directory." (no roots given, no bucket attribute: local storage). Conservative: /files/user and /files/ltd; never a root itself (FS-12); the temporary area is host-managed.',
    },
  },
  remove_file: {
    path: {
      roots: ['/files/user', '/files/ltd', '/files/temp', '/files/g', '/files/a'],
      write: true,
      note: 'Spec: "Removes a file." with a bucket attribute (so local and cloud). Decision: the roots a template can write to through another plugin (user, ltd, temp via write_file; g, a via put_file/copy_s3_temp_file). Not topics, member/ext, d, inquiry (content owned by other modules). Never a root.',
    },
  },
  rename_file: {
    src_path: {
      roots: CLOUD,
      write: true,
      leadingSlash: 'forbidden',
      note: 'Spec: both paths must be object/cloud storage paths written without a leading /; local files (files/user/, files/ltd/) cannot be moved.',
    },
    dest_path: {
      roots: CLOUD,
      write: true,
      leadingSlash: 'forbidden',
      note: 'Same as src_path.',
    },
  },
  storage_url: {
    path: {
      roots: CLOUD,
      write: false,
      note: 'Spec: "Signed read URL for a storage file". Decision: cloud storage roots only (local files have public URLs of their own).',
    },
  },
  gzip: {
    file_url: {
      roots: ['/files/g'],
      write: false,
      note: 'Spec: a /files/g/ path or an https URL (URLs go to the egress guard, not here).',
    },
    dest: {
      roots: ['/files/g'],
      write: true,
      note: 'Spec + Limits: dest must be /files/g/.',
    },
  },
  zip: {
    'entries.url': {
      roots: ['/files/g'],
      write: false,
      note: 'Spec: each url is /files/g/ or https (URLs go to the egress guard). FS-18: same rules as direct reads.',
    },
    dest: {
      roots: ['/files/g'],
      write: true,
      note: 'Spec + Limits: zip path under /files/g/.',
    },
  },
  unzip: {
    src: {
      roots: ['/files/g'],
      write: false,
      note: 'Spec: https URL or /files/g/.',
    },
    dest: {
      roots: ['/files/g'],
      write: true,
      note: 'Spec + Limits: folder under /files/g/. Decision: not /files/g itself (extracting into the top of the cloud root is refused).',
    },
  },
  generate_pdf: {
    path: {
      roots: ['/files/g/private', '/files/g/public'],
      write: true,
      leadingSlash: 'optional',
      note: 'Spec: "under files/g/private/ or files/g/public/" (written without a leading slash in the spec; both forms accepted). Not those folders themselves.',
    },
  },
  detect_document_text: {
    dir: {
      roots: ['/files/topics', '/files/inquiry', '/files/member/ext', '/files/d'],
      write: false,
      allowRoot: true,
      note: 'Spec: dir is one of /files/topics, /files/inquiry, /files/member/ext, /files/d. file_nm is joined with joinSegment (one segment only).',
    },
  },
  rcms_file_size: {
    input: {
      roots: ['/files/user', '/files/ltd'],
      write: false,
      note: 'Spec: "Size of a file", roots not shown. Conservative: /files/user and /files/ltd (the roots read_dir lists).',
    },
  },
};

/** Where host-generated names go (write_file without path, save_file, get_file without save_path). */
export const GENERATED_PATH_ROOT = '/files/temp';

/** Look up a rule; undefined when the plugin or attribute has no path rule. */
function pathRule(plugin: string, attr: string): PathRule | undefined {
  if (!Object.prototype.hasOwnProperty.call(PLUGIN_PATH_RULES, plugin)) return undefined;
  const attrs = PLUGIN_PATH_RULES[plugin];
  if (!Object.prototype.hasOwnProperty.call(attrs, attr)) return undefined;
  return attrs[attr];
}

/**
 * Parse `input` with the plugin attribute's leading-slash rule and check it is under one of the
 * rule's roots. Throws FileError E_PATH_DENIED naming plugin and attribute.
 */
export function checkPluginPath(plugin: string, attr: string, input: unknown): VirtualPath {
  const rule = pathRule(plugin, attr);
  const d = { plugin, attr };
  if (!rule)
    throw new FileError('E_PATH_DENIED', input, 'this attribute takes no file path', { ...d, reason: 'no-rule' });
  const p = parseVirtualPath(input, { leadingSlash: rule.leadingSlash ?? 'required', ...d });
  const prefix = rule.roots.find((r) => isUnder(p, r));
  if (prefix === undefined) {
    throw new FileError('E_PATH_DENIED', input, `allowed only under ${rule.roots.join(', ')}`, {
      ...d,
      reason: 'root-not-allowed',
    });
  }
  if (p.text === prefix && !rule.allowRoot) {
    throw new FileError('E_PATH_DENIED', input, `must name something below ${prefix}, not ${prefix} itself`, {
      ...d,
      reason: 'root-itself',
    });
  }
  return p;
}

/** The attributes of every plugin that take a path: [plugin, attr, rule]. */
export function allPathRules(): [string, string, PathRule][] {
  const out: [string, string, PathRule][] = [];
  for (const [plugin, attrs] of Object.entries(PLUGIN_PATH_RULES)) {
    for (const [attr, rule] of Object.entries(attrs)) out.push([plugin, attr, rule]);
  }
  return out;
}

export interface TempUploadId {
  path: VirtualPath;
  serviceDir: string;
  siteKey: string;
  uuid: string;
  extension: string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EXT = /^[A-Za-z0-9]{1,16}$/;

/**
 * copy_s3_temp_file's file_id: `files/temp/<service_dir>/{site_key}/{uuid}` optionally with
 * `.{extension}`, from the same site (FS-09). Throws E_PATH_DENIED for any other form or site.
 * Decision: uuid is the canonical 8-4-4-4-12 hex form; extension is 1-16 ASCII letters/digits.
 */
export function parseTempUploadId(input: unknown, siteKey: string): TempUploadId {
  const p = checkPluginPath('copy_s3_temp_file', 'file_id', input);
  const d = { plugin: 'copy_s3_temp_file', attr: 'file_id' };
  if (p.segments.length !== 3) {
    throw new FileError('E_PATH_DENIED', input, 'not a temporary upload ID (files/temp/<dir>/<site>/<uuid>)', {
      ...d,
      reason: 'not-temp-upload-id',
    });
  }
  const [serviceDir, key, last] = p.segments;
  if (key !== siteKey)
    throw new FileError('E_PATH_DENIED', input, 'temporary upload of another site', { ...d, reason: 'other-site' });
  const dot = last.indexOf('.');
  const uuid = dot < 0 ? last : last.slice(0, dot);
  const extension = dot < 0 ? undefined : last.slice(dot + 1);
  if (!UUID.test(uuid) || (extension !== undefined && !EXT.test(extension))) {
    throw new FileError('E_PATH_DENIED', input, 'not a temporary upload ID (files/temp/<dir>/<site>/<uuid>)', {
      ...d,
      reason: 'not-temp-upload-id',
    });
  }
  return { path: p, serviceDir, siteKey: key, uuid, extension };
}

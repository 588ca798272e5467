import { defineFunction } from '../types.js';
import { PhpArray, type Value } from '../../value/value.js';
import { pregMatch } from '../../php/pcre/preg.js';

/**
 * `pattern`, in the isolate: preg_match($pattern, $path) === 1 keeps an entry. The host lists; the
 * matching, with whatever backtracking the pattern asks for, costs the render's CPU budget like
 * any regular expression of a template. A pattern PHP cannot compile matches nothing (PHP's
 * preg_match returns false), with one warning line.
 */
function matching(items: Value[], attrs: Record<string, Value>, warn: (m: string) => void): Value[] {
  const pattern = attrs.pattern;
  if (pattern === undefined || pattern === null || pattern === '') return items;
  const out: Value[] = [];
  for (const item of items) {
    const path = item instanceof PhpArray ? item.get('path') : item;
    let warning = '';
    const r = pregMatch(pattern, path, 0, 0, (m) => (warning = m));
    if (r.result === false) {
      warn(`{read_dir} pattern: ${warning || 'preg_match() failed'}; no entry matches`);
      return [];
    }
    if (r.result === 1) out.push(item);
  }
  return out;
}

export default defineFunction({
  kind: 'block',
  name: 'read_dir',
  host: 'files',
  summary:
    "Block: lists a folder under /files/user or /files/ltd and runs its body once per entry. The entry goes to `file_var` (default `file`) as `{path, size, ctime, mtime, is_dir}` (path: the virtual path; ctime: content modification time; mtime: attribute modification time, e.g. a rename; Unix seconds), or as the path string with `name_only=true`. Entries are sorted by name, a folder before its content; hidden files and symlinks are skipped and never followed. `recursive=true` walks subfolders (32 levels at most); `type` keeps only files or folders; `pattern` keeps entries whose path matches the PHP regular expression (preg_match, run in the sandbox under the render's CPU budget). More entries than the host's cap in one listing, or more directory entries read by all the listings of one render than the host allows: E_SIZE_LIMIT.",
  attrs: {
    name: { type: 'string', doc: 'Name of the block (unused).' },
    file_var: { type: 'varname', doc: 'Variable receiving each entry (default file).' },
    path: { type: 'string', doc: 'Folder: /files/user or /files/ltd, or a folder below them.' },
    pattern: { type: 'string', doc: "PHP regular expression matched against each entry's path." },
    recursive: { type: 'bool', doc: 'Include subfolders.' },
    name_only: { type: 'bool', doc: 'The item is the path string only.' },
    type: { type: 'string', enum: ['file', 'dir'], doc: 'Only files or only folders; both when omitted.' },
  },
  examples: [
    {
      template:
        '{read_dir path="/files/user/example" file_var=f type="file"}{$f.path} {$f.size} {if $f.is_dir}dir{else}file{/if}|{/read_dir}',
      output:
        '/files/user/example/events.jsonl 47 file|/files/user/example/members.csv 29 file|/files/user/example/notes.txt 23 file|',
    },
    {
      template:
        '{read_dir path="/files/user/example" recursive=true name_only=true pattern=\'/\\.txt$/\' file_var=p}{$p} {/read_dir}',
      output: '/files/user/example/notes.txt /files/user/example/sub/deep.txt ',
    },
  ],
  items: (items, attrs, ctx) => matching(items, attrs, (m) => ctx.log('warning', m)),
});

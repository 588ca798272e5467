import { describe, expect, it } from 'vitest';
import { FileError } from '../../../src/host-adapters/files/errors.js';
import {
  PLUGIN_PATH_RULES,
  allPathRules,
  checkPluginPath,
  parseTempUploadId,
  type PathRule,
} from '../../../src/host-adapters/files/plugin-roots.js';
import { KNOWN_ROOTS } from '../../../src/host-adapters/files/virtual-path.js';
import { ALLOW_FORMS, DENY_FORMS, NON_STRINGS, STATIC_DENY } from './corpus.js';

const RULES = allPathRules();

function variants(rule: PathRule, withSlash: string): { ok: string[]; bad: string[] } {
  const without = withSlash.startsWith('/') ? withSlash.slice(1) : withSlash;
  const mode = rule.leadingSlash ?? 'required';
  if (mode === 'required') return { ok: [withSlash], bad: [without] };
  if (mode === 'forbidden') return { ok: [without], bad: [withSlash] };
  return { ok: [withSlash, without], bad: [] };
}

function expectDenied(plugin: string, attr: string, input: unknown): FileError {
  let err: unknown;
  try {
    const p = checkPluginPath(plugin, attr, input);
    err = new Error(`${plugin}.${attr} accepted ${JSON.stringify(input)} as ${p.text}`);
  } catch (e) {
    err = e;
  }
  if (!(err instanceof FileError)) throw err;
  expect(err.code).toBe('E_PATH_DENIED');
  expect(err.plugin).toBe(plugin);
  expect(err.attr).toBe(attr);
  expect(err.message).toContain(`${plugin}.${attr}`);
  return err;
}

function coveredBy(rule: PathRule, root: string): boolean {
  return rule.roots.some((r) => r === root || r.startsWith(root + '/') || root.startsWith(r + '/'));
}

describe('rule table', () => {
  it('covers every path-taking plugin attribute of the spec', () => {
    const expected = [
      'api.files',
      'copy_s3_temp_file.file_id',
      'copy_s3_temp_file.dest_path',
      'get_file.path',
      'get_file.save_path',
      'put_file.tmp_path',
      'put_file.path',
      'put_file.files_path',
      'write_file.path',
      'read_dir.path',
      'read_file.path',
      'remove_dir.path',
      'remove_file.path',
      'rename_file.src_path',
      'rename_file.dest_path',
      'storage_url.path',
      'gzip.file_url',
      'gzip.dest',
      'zip.entries.url',
      'zip.dest',
      'unzip.src',
      'unzip.dest',
      'generate_pdf.path',
      'detect_document_text.dir',
      'rcms_file_size.input',
    ];
    expect(RULES.map(([p, a]) => `${p}.${a}`).sort()).toEqual(expected.sort());
    expect(Object.keys(PLUGIN_PATH_RULES.save_file)).toEqual([]);
  });

  it('every rule root is a known root or below one, and every rule has a note', () => {
    for (const [, , rule] of RULES) {
      expect(rule.note.length).toBeGreaterThan(10);
      for (const r of rule.roots) expect(KNOWN_ROOTS.some((k) => r === k || r.startsWith(k + '/'))).toBe(true);
    }
  });

  it('spec decisions', () => {
    expect(PLUGIN_PATH_RULES.read_dir.path.roots).toEqual(['/files/user', '/files/ltd']);
    expect(PLUGIN_PATH_RULES.copy_s3_temp_file.dest_path.roots).not.toContain('/files/user');
    expect(PLUGIN_PATH_RULES.rename_file.src_path.leadingSlash).toBe('forbidden');
    for (const [p, a] of [
      ['gzip', 'dest'],
      ['zip', 'dest'],
      ['unzip', 'dest'],
    ])
      expect(PLUGIN_PATH_RULES[p][a].roots).toEqual(['/files/g']);
    expect(PLUGIN_PATH_RULES.remove_dir.path.allowRoot).toBeFalsy();
    expect(PLUGIN_PATH_RULES.api.files.roots).toEqual(['/files/temp']);
  });

  it('unknown plugins and attributes get no path', () => {
    expectDenied('nope', 'path', '/files/user/a.csv');
    expectDenied('read_file', 'src', '/files/user/a.csv');
    expectDenied('save_file', 'path', '/files/temp/a.csv');
    expectDenied('__proto__', 'path', '/files/user/a.csv');
    expectDenied('read_file', '__proto__', '/files/user/a.csv');
    expectDenied('read_file', 'constructor', '/files/user/a.csv');
  });
});

describe('deny corpus x every rule', () => {
  let checks = 0;
  for (const [plugin, attr, rule] of RULES) {
    it(`${plugin}.${attr}: every deny form inside each allowed root, both slash forms`, () => {
      for (const prefix of rule.roots) {
        for (const f of DENY_FORMS) {
          const s = f.form(prefix);
          const without = s.startsWith('/') ? s.slice(1) : s;
          for (const input of [s, without]) {
            expectDenied(plugin, attr, input);
            checks++;
          }
        }
      }
      for (const s of STATIC_DENY) {
        expectDenied(plugin, attr, s);
        checks++;
      }
      for (const v of NON_STRINGS) expectDenied(plugin, attr, v);
    });

    it(`${plugin}.${attr}: every known root outside the rule is denied (FS-09)`, () => {
      for (const root of KNOWN_ROOTS) {
        if (coveredBy(rule, root)) continue;
        for (const rest of ['', '/', '/a.csv', '/x/y/a.csv']) {
          const s = root + rest;
          expectDenied(plugin, attr, s);
          expectDenied(plugin, attr, s.slice(1));
        }
      }
      // a known root that contains a prefix rule, but outside the prefix (generate_pdf)
      for (const prefix of rule.roots) {
        if (KNOWN_ROOTS.includes(prefix as (typeof KNOWN_ROOTS)[number])) continue;
        const parent = prefix.slice(0, prefix.lastIndexOf('/'));
        expectDenied(plugin, attr, `${parent}/other/a.pdf`);
        expectDenied(plugin, attr, `${parent}/a.pdf`);
        expectDenied(plugin, attr, `${prefix}x/a.pdf`);
      }
    });

    it(`${plugin}.${attr}: wrong leading-slash form is denied`, () => {
      for (const prefix of rule.roots) {
        for (const bad of variants(rule, `${prefix}/a.csv`).bad) expectDenied(plugin, attr, bad);
      }
    });

    it(`${plugin}.${attr}: the root itself (FS-12) ${rule.allowRoot ? 'is allowed' : 'is denied'}`, () => {
      for (const prefix of rule.roots) {
        for (const s of [prefix, prefix + '/']) {
          for (const v of variants(rule, s).ok) {
            if (rule.allowRoot) expect(checkPluginPath(plugin, attr, v).text).toBe(prefix);
            else expectDenied(plugin, attr, v);
          }
        }
        // "/files/user/.." style roots are always denied
        expectDenied(plugin, attr, prefix + '/..');
        expectDenied(plugin, attr, prefix + '/a/..');
      }
    });
  }
  it('corpus size: deny forms x allowed roots x both slash forms, plus static forms, per rule', () => {
    let total = 0;
    for (const [, , rule] of RULES) total += rule.roots.length * DENY_FORMS.length * 2 + STATIC_DENY.length;
    // printed for the report
    console.log(
      `deny checks: ${total} (${DENY_FORMS.length} rooted forms + ${STATIC_DENY.length} static forms, ${RULES.length} rules); checks run before this test: ${checks}`,
    );
    expect(total).toBeGreaterThan(5000);
  });
});

describe('allow corpus x every rule', () => {
  for (const [plugin, attr, rule] of RULES) {
    it(`${plugin}.${attr}: every allow form under every allowed root`, () => {
      for (const prefix of rule.roots) {
        for (const a of ALLOW_FORMS) {
          for (const v of variants(rule, prefix + a.rest).ok) {
            const p = checkPluginPath(plugin, attr, v);
            expect(p.text).toBe(prefix + (a.expect ?? a.rest));
            expect(p.text.startsWith(prefix + '/')).toBe(true);
          }
        }
      }
    });
  }
});

describe('spec examples', () => {
  it('security.md FS-01 / FS-09 / FS-12 examples', () => {
    expectDenied('read_file', 'path', '/files/user/../../etc/passwd');
    expectDenied('put_file', 'files_path', '/files/user/../ltd/x');
    expectDenied('write_file', 'path', '/files/temp/a/../../user/x');
    expectDenied('rename_file', 'src_path', 'files/user/a');
    expectDenied('rename_file', 'dest_path', 'files/ltd/a');
    expectDenied('rename_file', 'src_path', '/files/g/a');
    expect(checkPluginPath('rename_file', 'dest_path', 'files/g/a').text).toBe('/files/g/a');
    expectDenied('copy_s3_temp_file', 'dest_path', '/files/user/x.png');
    expect(checkPluginPath('copy_s3_temp_file', 'dest_path', '/files/a/x.png').text).toBe('/files/a/x.png');
    for (const p of ['/files/user/', '/files/', '/files/user/..', '/files/ltd', 'files/user'])
      expectDenied('remove_dir', 'path', p);
    expect(checkPluginPath('read_dir', 'path', '/files/user').text).toBe('/files/user');
    expectDenied('read_dir', 'path', '/files/temp');
    expectDenied('read_dir', 'path', '/files/g/x');
    expect(checkPluginPath('generate_pdf', 'path', 'files/g/private/x.pdf').text).toBe('/files/g/private/x.pdf');
    expectDenied('generate_pdf', 'path', 'files/g/x.pdf');
    expectDenied('gzip', 'dest', '/files/a/x.gz');
    expectDenied('gzip', 'file_url', 'https://example.com/x');
    expectDenied('unzip', 'dest', '/files/g/');
    expect(checkPluginPath('detect_document_text', 'dir', '/files/topics').text).toBe('/files/topics');
    expectDenied('detect_document_text', 'dir', '/files/user');
    expectDenied('write_file', 'path', '/files/g/x.csv');
    expect(checkPluginPath('read_file', 'path', '/files/member/ext/1/a.csv').root).toBe('/files/member/ext');
  });

  it('copy_s3_temp_file file_id: shape and same site (FS-09)', () => {
    const id = 'files/temp/upload/SITE1/0f8fad5b-d9cb-469f-a165-70867728950e.png';
    const t = parseTempUploadId(id, 'SITE1');
    expect(t.uuid).toBe('0f8fad5b-d9cb-469f-a165-70867728950e');
    expect(t.extension).toBe('png');
    expect(
      parseTempUploadId('files/temp/upload/SITE1/0f8fad5b-d9cb-469f-a165-70867728950e', 'SITE1').extension,
    ).toBeUndefined();
    const bad = [
      'files/temp/upload/OTHERSITE/0f8fad5b-d9cb-469f-a165-70867728950e',
      '/files/temp/upload/SITE1/0f8fad5b-d9cb-469f-a165-70867728950e',
      'files/temp/SITE1/0f8fad5b-d9cb-469f-a165-70867728950e',
      'files/temp/upload/SITE1/x/0f8fad5b-d9cb-469f-a165-70867728950e',
      'files/temp/upload/SITE1/not-a-uuid',
      'files/temp/upload/SITE1/0f8fad5b-d9cb-469f-a165-70867728950e.p/g',
      'files/temp/upload/SITE1/0f8fad5b-d9cb-469f-a165-70867728950e.',
      'files/g/upload/SITE1/0f8fad5b-d9cb-469f-a165-70867728950e',
      'files/temp/upload/SITE1/../SITE1/0f8fad5b-d9cb-469f-a165-70867728950e',
    ];
    for (const b of bad) {
      expect(() => parseTempUploadId(b, 'SITE1')).toThrow(FileError);
    }
  });
});

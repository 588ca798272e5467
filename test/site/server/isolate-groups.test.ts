/**
 * `serve --isolate-groups FILE` (src/site/server/isolate-groups.ts): the operator's file of which
 * sites are one owner's; each wrong file is one line naming the file and what is wrong.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IsolateGroups, partsOf, readIsolateGroups } from '../../../src/site/server/isolate-groups.js';
import { resolveServeOptions } from '../../../src/site/server/options.js';
import { tenancyOptions } from '../../../src/site/server/tenancy-options.js';

const dir = mkdtempSync(join(tmpdir(), 'smartcage-isolate-groups-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe('--isolate-groups', () => {
  it('maps each site key to its group; a site in no list has none', () => {
    const f = file('ok.json', JSON.stringify({ acme: ['shop', 'blog'], 'globex.jp': ['www'], empty: [] }));
    expect([...readIsolateGroups(f)]).toEqual([
      ['shop', 'acme'],
      ['blog', 'acme'],
      ['www', 'globex.jp'],
    ]);
    const engine = tenancyOptions(
      resolveServeOptions({ 'isolate-groups': f, 'tenants-per-isolate': '8' }, {}, dir),
    ).engine!;
    expect(engine.pool).toEqual({ tenantsPerIsolate: 8 });
    const group = (tenant: string) =>
      engine.isolateGroup!({ tenant, memberId: null, superUser: false, context: 'web', requestId: 'r' });
    expect([group('blog'), group('www'), group('other')]).toEqual(['acme', 'globex.jp', undefined]);
  });

  it('cuts a group of more sites than one isolate takes into parts, each routed on its own', () => {
    const f = file('parts.json', JSON.stringify({ acme: ['a1', 'a2', 'a3', 'a4', 'a5'], small: ['s1', 's2'] }));
    expect([...partsOf(readIsolateGroups(f), 2)]).toEqual([
      ['a1', 'acme/1'],
      ['a2', 'acme/1'],
      ['a3', 'acme/2'],
      ['a4', 'acme/2'],
      ['a5', 'acme/3'],
      ['s1', 'small'],
      ['s2', 'small'],
    ]);
    const groups = new IsolateGroups(f, 2);
    expect(groups.groupOf('a3')).toBe('acme/2');
    // One key per part, none a site's own: a part is placed as one, apart from the other parts.
    expect(['a1', 'a2', 'a3', 'a5', 's2', 'other'].map(groups.routeKey)).toEqual([
      '\u0001acme/1',
      '\u0001acme/1',
      '\u0001acme/2',
      '\u0001acme/3',
      '\u0001small',
      'other',
    ]);
    // At one tenant per isolate nothing is shared, and the groups are not cut.
    expect(new IsolateGroups(f).groupOf('a5')).toBe('acme');
  });

  it('reads the file again on reload; a file that no longer reads keeps the last good groups', () => {
    const f = file('reload.json', JSON.stringify({ acme: ['shop'] }));
    const groups = new IsolateGroups(f);
    expect(groups.groupOf('blog')).toBeUndefined();
    writeFileSync(f, JSON.stringify({ acme: ['shop', 'blog'], globex: ['www'] }));
    expect(groups.reload()).toBe('isolate groups: 3 sites in 2 groups');
    expect([groups.groupOf('blog'), groups.groupOf('www')]).toEqual(['acme', 'globex']);
    writeFileSync(f, '{"acme": ["shop"], "b": ["shop"]}');
    expect(groups.reload()).toBe(
      `--isolate-groups ${f}: site "shop" is in two groups, "acme" and "b"; the last good groups stay`,
    );
    expect(groups.groupOf('www')).toBe('globex');
  });

  it.each([
    ['missing.json', null, /cannot be read \(ENOENT/],
    ['text.json', 'acme: shop', /: is not JSON$/],
    ['list.json', '["shop"]', /needs an object of group names, each a list of site keys$/],
    ['notlist.json', '{"acme": "shop"}', /group "acme" needs a list of site keys$/],
    ['badsite.json', '{"acme": ["../etc"]}', /group "acme" has "..\/etc", which is not a site key$/],
    ['numsite.json', '{"acme": [7]}', /group "acme" has 7, which is not a site key$/],
    ['badgroup.json', '{"a b": ["shop"]}', /the group name "a b" is not a name/],
    ['twice.json', '{"a": ["shop"], "b": ["shop"]}', /site "shop" is in two groups, "a" and "b"$/],
  ])('%s is one line naming the file', (name, text, message) => {
    const f = text === null ? join(dir, name) : file(name, text);
    expect(() => readIsolateGroups(f)).toThrow(message);
    try {
      readIsolateGroups(f);
    } catch (e) {
      expect((e as Error).message.startsWith(`--isolate-groups ${f}: `)).toBe(true);
      expect((e as Error).message).not.toContain('\n');
    }
  });
});

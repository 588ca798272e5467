/**
 * Which functions may keep their answers (src/site/api/cache-rule.ts, D234): only pure reads of
 * the site's content, with no clock, random source or request header in the answer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheRefusal, READ_ONLY_HOST, VARYING } from '../../../src/site/api/cache-rule.js';
import { HOST_FAMILIES } from '../../../src/plugins/host-plugins.js';
import { ROOT } from '../../support/bin.js';

const TEMPLATES: Record<string, string> = {
  'list.tpl': '{api_method var=news model="Topics" method="list" method_params=$group request_params=$smarty.get}',
  'mails.tpl': '{sendmail to="a@example.com" subject="x" body="y"}',
};
const sources = { templates: (n: string) => TEMPLATES[n], functions: () => undefined };
const refusal = (source: string) => cacheRefusal('functions/f.tpl', source, sources);

describe('cacheRefusal', () => {
  it('allows reads of content, members and tags, the query, the member, and dates given', () => {
    for (const ok of [
      '{api_method var=news model="Topics" method="list" method_params=$group request_params=$smarty.get}{return value=$news}',
      '{include file="list.tpl"}{return value=$news}',
      '{assign_topics_detail var=t topics_id=$smarty.get.id}{return value=$t}',
      '{assign_member_detail var=m member_id=$smarty.session.member_id}{return value=$m}',
      '{assign_tag_list var=t category_id=1}{assign var=x value=$smarty.request.a}{return value=$t}',
      '{return value="2024-01-02"|date_format:"Y/m/d"}',
    ])
      expect(refusal(ok), ok).toBeNull();
  });

  it('refuses writes, mail, egress, the logger, sleep and sessions, included or not', () => {
    const cases: [string, string][] = [
      ['{update_counter value=1 topics_group_id=1 slug=1 ext_slug="c"}', '{update_counter}'],
      ['{include file="mails.tpl"}', '{sendmail}'],
      ['{api endpoint="https://example.com/" var=r}', '{api}'],
      ['{api_internal endpoint="/rcms-api/1/x" var=r}', '{api_internal}'],
      ['{logger msg1="x"}', '{logger}'],
      ['{sleep ms=100}', '{sleep}'],
      ['{login member_id=2}', '{login}'],
      ['{write_file path="/files/user/a.txt" var=p value="x"}', '{write_file}'],
      ['{batch name="tick" var=id}', '{batch}'],
    ];
    for (const [source, plugin] of cases)
      expect(refusal(source), source).toContain(`calls ${plugin}, which is not a pure read`);
  });

  it('refuses the clock, random sources and request headers', () => {
    expect(refusal('{$smarty.now}')).toBe('functions/f.tpl reads $smarty.now');
    expect(refusal('{$smarty.server.HTTP_ACCEPT_LANGUAGE}')).toContain('reads $smarty.server');
    expect(refusal('{$smarty.server.REMOTE_ADDR}')).toContain('reads $smarty.server');
    expect(refusal('{uuid var=u}')).toContain('calls uuid');
    expect(refusal('{"Y-m-d"|date}')).toContain('calls date');
    expect(refusal('{math equation="rand(1,6)"}')).toContain('calls math');
    expect(refusal('{$l|@shuffle}')).toContain('calls shuffle');
  });

  it('refuses a function that does not compile', () => {
    expect(refusal('{$a|no_such_modifier}')).toMatch(/^functions\/f\.tpl does not compile \(E_\w+ at line 1\)$/);
  });

  it('lists every plugin file that reads the clock or a random source, but the two that take a relative date', () => {
    // A new plugin that reads ctx.now or ctx.random must be decided on here.
    const relativeOnly = new Set(['date_format', 'pg_dateformat']);
    const dir = path.join(ROOT, 'src', 'plugins');
    const found: string[] = [];
    for (const family of readdirSync(dir, { withFileTypes: true })) {
      if (!family.isDirectory() || family.name.startsWith('host-')) continue;
      for (const file of readdirSync(path.join(dir, family.name))) {
        const text = readFileSync(path.join(dir, family.name, file), 'utf8');
        const name = /\bname: '([a-z_0-9]+)'/.exec(text)?.[1];
        if (name && /ctx\.(now|random)\b/.test(text) && !relativeOnly.has(name)) found.push(name);
      }
    }
    expect(found.length).toBeGreaterThan(5);
    for (const name of found) expect(VARYING, name).toContain(name);
  });

  it('allows only host plugins that exist', () => {
    const host = new Set(Object.values(HOST_FAMILIES).flatMap((f) => f.map((p) => p.name)));
    for (const name of READ_ONLY_HOST) expect(host, name).toContain(name);
  });
});

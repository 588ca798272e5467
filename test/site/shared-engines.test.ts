/**
 * Two sites on one set of engines (what `serve --sites` runs): each render finds its own site by
 * its tenant, and nothing of one site reaches the other: templates, custom functions, constants,
 * time zone, files, data.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SiteEngines } from '../../src/site/engines.js';
import { renderOnSite } from '../../src/site/render.js';
import { sampleSite, eachBackend } from './support/backends.js';
import type { Site } from '../../src/site/open-site.js';

eachBackend('sites sharing engines', (backend) => {
  const engines = new SiteEngines();
  let a: Site & { done(): Promise<void> };
  let b: Site & { done(): Promise<void> };

  beforeAll(async () => {
    a = await sampleSite(backend, {
      open: { engines },
      files: {
        'templates/only-a.tpl': 'A-TEMPLATE',
        'functions/only_a.tpl': '{return value="A-FUNCTION"}',
        'files/user/only-a.txt': 'A-FILE\n',
      },
    });
    b = await sampleSite(backend, {
      open: { engines },
      edit: (c) => {
        c.timezone = 'America/New_York';
        c.root_url = 'http://b.example';
      },
    });
    await a.db.run("UPDATE topic_texts SET subject = 'A-DATA ' || subject WHERE tenant = ?", [a.tenant]);
  }, 60_000);

  afterAll(async () => {
    await a?.done();
    await b?.done();
    await engines.close();
  });

  const render = (site: Site, source: string) =>
    renderOnSite(site, source, { name: 'probe.tpl', memberId: null }).then(
      (r) => r.output,
      (e: Error & { code?: string }) => `error ${e.code}`,
    );

  it('runs both sites in the same sandbox workers', async () => {
    await render(a, 'x');
    await render(b, 'x');
    expect(engines.pids()).toHaveLength(1);
    expect(a.engines).toBe(b.engines);
  });

  it('gives each render its own site key, root URL and time zone', async () => {
    const probe =
      '{$smarty.const.SITE_KEY}|{$smarty.const.ROOT_URL}|{"2024-01-01 00:00:00 UTC"|strtotime|date_format:"%H"}';
    expect(await render(a, probe)).toBe(`${a.tenant}|http://localhost:8080|09`);
    expect(await render(b, probe)).toBe(`${b.tenant}|http://b.example|19`);
  });

  it("finds only the render's own site's templates and custom functions", async () => {
    expect(await render(a, '{include file="only-a.tpl"}')).toBe('A-TEMPLATE');
    expect(await render(b, '{include file="only-a.tpl"}')).toMatch(/^error E_/);
    expect(await render(a, '{function name="only_a" var=x}{$x}')).toBe('A-FUNCTION');
    expect(await render(b, '{function name="only_a" var=x}{$x}')).toMatch(/^error E_/);
    // The same source compiled for A is not reused for B (the compile cache is per tenant).
    writeFileSync(path.join(b.dir, 'templates', 'only-a.tpl'), 'B-OWN');
    expect(await render(b, '{include file="only-a.tpl"}')).toBe('B-OWN');
    expect(await render(a, '{include file="only-a.tpl"}')).toBe('A-TEMPLATE');
  });

  it("reads only the render's own site's files and data", async () => {
    const file = '{read_file path="/files/user/only-a.txt" row=line}{$line}{/read_file}';
    expect(await render(a, file)).toBe('A-FILE');
    expect(await render(b, file)).not.toContain('A-FILE');
    const news =
      '{assign_array var=g values="1" keys="topics_group_id"}{api_method var=n model="Topics" method="list" method_params=$g}{$n.list.0.subject}';
    expect(await render(a, news)).toMatch(/^A-DATA /);
    const fromB = await render(b, news);
    expect(fromB).not.toContain('A-DATA');
    expect(fromB.length).toBeGreaterThan(0);
  });

  it('a site that closed is no longer found by the engines; the other keeps rendering', async () => {
    const c = await sampleSite(backend, { open: { engines } });
    expect(await render(c, '{$smarty.const.SITE_KEY}')).toBe(c.tenant);
    await c.done();
    expect(await render(c, '{$smarty.const.SITE_KEY}')).toBe('error E_INTERNAL');
    expect(await render(a, '{$smarty.const.SITE_KEY}')).toBe(a.tenant);
  }, 60_000);
});

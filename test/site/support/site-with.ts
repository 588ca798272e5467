/**
 * A sample site changed before it is opened: site.json edited (endpoints, apis...) and files
 * written (custom functions, secrets.json), on a backend of backends.ts; and members beyond the
 * sample's.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { initSite } from '../../../src/site/init.js';
import { openSite, type Site } from '../../../src/site/open-site.js';
import type { Backend } from './backends.js';
import { TemplateError } from '../../../src/index.js';

export type TestSite = Site & { done(): Promise<void> };

export interface SiteChanges {
  siteKey?: string;
  /** Changes site.json (parsed) in place. */
  edit?: (config: Record<string, unknown>) => void;
  /** Files to write, relative to the site folder. */
  files?: Record<string, string>;
}

export async function siteWith(backend: Backend, changes: SiteChanges = {}): Promise<TestSite> {
  const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-site-'));
  await initSite(dir, { siteKey: changes.siteKey ?? `t${randomBytes(6).toString('hex')}`, database: backend.url });
  const file = path.join(dir, 'site.json');
  if (changes.edit) {
    const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    changes.edit(config);
    writeFileSync(file, JSON.stringify(config, null, 2));
  }
  for (const [name, text] of Object.entries(changes.files ?? {})) writeFileSync(path.join(dir, name), text);
  const site = await openSite(dir);
  return Object.assign(site, {
    async done() {
      await site.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

/** Adds an endpoint (GET unless said) of API `apiId` answered by functions/<fn>.tpl. */
export function endpoint(path: string, fn: string, opts: { method?: 'GET' | 'POST'; apiId?: number } = {}) {
  return (config: Record<string, unknown>): void => {
    (config.endpoints as unknown[]).push({ path, method: opts.method ?? 'GET', function: fn, api_id: opts.apiId ?? 1 });
  };
}

/** A member of the site besides the sample's (members 1-8). */
export async function addMember(site: Site, memberId: number): Promise<void> {
  await site.db.run(
    "INSERT INTO members (tenant, member_id, inst_ymdhi, update_ymdhi) VALUES (?, ?, '2023-01-01 00:00:00', '2023-01-01 00:00:00') ON CONFLICT DO NOTHING",
    [site.tenant, memberId],
  );
}

/** `CODE@line` of the TemplateError a render fails with, or `rendered`: a rule's refusal and where. */
export async function failureOf(render: Promise<unknown>): Promise<string> {
  try {
    await render;
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    return `${e.code}@${e.line}`;
  }
  return 'rendered';
}

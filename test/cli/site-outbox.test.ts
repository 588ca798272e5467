/** `smartcage site outbox DIR [--json] [--limit N]` as a user runs it: the listing, its JSON, and its exit codes. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { initSite } from '../../src/site/init.js';
import { openSite } from '../../src/site/open-site.js';
import { createEngine } from '../../src/index.js';

let base: string;
let dir: string;
beforeAll(async () => {
  base = mkdtempSync(path.join(tmpdir(), 'smartcage-outbox-cli-'));
  dir = path.join(base, 'shop');
  await initSite(dir);
  const site = await openSite(dir);
  const engine = createEngine({ ...site.engineOptions(), workers: 1 });
  try {
    await engine.render('{sendmail to="a@example.org" bcc="b@example.org" subject="最初" contents="one"}', {
      identity: site.identity(),
    });
    await engine.render('{sendmail to_member_id="2" mail_template="welcome" name="花子"}', {
      identity: site.identity(),
    });
  } finally {
    await engine.close();
    await site.close();
  }
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('smartcage site outbox', () => {
  it("lists the mails newest first, one line each, in the site's time zone", () => {
    const r = runCli(['site', 'outbox', dir]);
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^ {4}2 {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+09:00 {2}not_sent {2}info@example\.com -> hanako\.sato@example\.com {2}"ようこそ、花子さん \/ Welcome, 花子"$/,
    );
    expect(lines[1]).toMatch(
      /^ {4}1 .* not_sent {2}info@example\.com -> a@example\.org, bcc:b@example\.org {2}"最初"$/,
    );
  });

  it('--json gives every field, --limit the newest N', () => {
    const r = runCli(['site', 'outbox', dir, '--json', '--limit', '1']);
    expect(r.status).toBe(0);
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: 2,
      status: 'not_sent',
      from: 'info@example.com',
      fromName: 'Demo site',
      to: ['hanako.sato@example.com'],
      cc: [],
      bcc: [],
      error: '',
      messageId: '',
    });
    expect(rows[0].body).toMatch(/^花子さん\n/);
    expect(rows[0].time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+09:00$/);
  });

  it.each([
    [[], 2, 'site outbox takes exactly one site folder'],
    [['{dir}', '--limit', '0'], 2, '--limit needs a positive whole number'],
    [['{dir}', '--limit', '5000'], 2, '--limit is at most 1000'],
    [['{dir}', '--csv'], 2, '--csv'],
    [['{base}/nowhere'], 3, 'nowhere: no such folder'],
    [['{base}'], 3, 'site.json: not found'],
  ])('%j exits %i: %s', (args, status, message) => {
    const r = runCli(['site', 'outbox', ...args.map((a) => a.replace('{dir}', dir).replace('{base}', base))]);
    expect(r.status).toBe(status);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });

  it('--help says what the statuses mean', () => {
    const r = runCli(['site', 'outbox', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('not_sent (the site has no');
  });
});

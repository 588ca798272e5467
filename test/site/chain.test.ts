/**
 * Issue 23's chain end to end, on every queue backend (the site store on SQLite and PostgreSQL,
 * BullMQ on Redis): a page zips files with callback_batch and data; `smartcage batch run --site
 * DIR --once`, a separate process, runs the callback batch with that data; the batch sends mail
 * through a real SMTP relay. The relay, the site's outbox and the run history all show it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eachSiteQueue, batchSite } from './batches/support/sites.js';
import { startRelay, type MailRelay } from './support/mail-relay.js';
import type { TestSite } from './support/site-with.js';
import { history } from '../../src/site/batches/history.js';
import { listOutbox } from '../../src/site/mail/outbox.js';
import { bodyOf } from '../support/smtp-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The CLI in a child process, without blocking this process's event loop (the relay runs here). */
function cli(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--no-node-snapshot',
        '--import',
        'tsx',
        '-e',
        `import(${JSON.stringify(ROOT + 'src/cli/main.ts')}).then(async (m) => { process.exitCode = await m.main(${JSON.stringify(args)}); })`,
      ],
      { cwd: ROOT },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ status: code ?? -1, stdout, stderr }));
  });
}

const MAILER = `{sendmail var=ok to=$ext_data.to subject="Your archive is ready" contents="Download: \`$ext_data.zip\` (\`$ext_data.files\` files)"}{if $ok}mailed{else}not mailed{/if}`;

eachSiteQueue('zip -> callback batch -> sendmail', (v) => {
  let relay: MailRelay;
  let site: TestSite;
  beforeAll(async () => {
    relay = await startRelay();
    site = await batchSite(v, { mailer: MAILER }, relay.site());
  });
  afterAll(async () => {
    await site?.done();
    await relay?.close();
  });

  it('the page zips with a callback, batch run --once mails from the batch; relay, outbox and history agree', async () => {
    const files = site.host.files!;
    const { parseVirtualPath } = await import('../../src/host-adapters/files/virtual-path.js');
    await files.writeAtomic(parseVirtualPath('/files/g/reports/a.txt'), new TextEncoder().encode('report A'));
    await files.writeAtomic(parseVirtualPath('/files/g/reports/b.txt'), new TextEncoder().encode('report B'));
    const page = [
      '{assign_array var=e1 keys="url,name" values="/files/g/reports/a.txt,a.txt"}',
      '{assign_array var=e2 keys="url,name" values="/files/g/reports/b.txt,b.txt"}',
      '{append var=entries value=$e1}{append var=entries value=$e2}',
      '{assign_array var=d keys="to,zip,files" values="buyer@example.org,/files/g/out/reports.zip,2"}',
      '{zip entries=$entries dest="/files/g/out/reports.zip" callback_batch="mailer" data=$d}{$zip_dest}',
    ].join('');
    const rendered = await site.engines
      .at(0)
      .render(page, { name: 'page.tpl', identity: site.identity({ memberId: null }) });
    expect(rendered.output).toBe('/files/g/out/reports.zip');
    expect(relay.received).toHaveLength(0);

    const run = await cli(['batch', 'run', '--site', site.dir, '--once']);
    expect(run.stderr + run.stdout).not.toMatch(/E_[A-Z_]+/);
    expect(run.status).toBe(0);

    expect(relay.received).toHaveLength(1);
    const mail = relay.received[0]!;
    expect(mail.rcptTo).toEqual(['buyer@example.org']);
    expect(bodyOf(mail.raw)).toContain('Download: /files/g/out/reports.zip (2 files)');

    const outbox = await listOutbox(site, 10);
    expect(outbox.map((m) => [m.status, m.to])).toEqual([['sent', ['buyer@example.org']]]);

    const runs = await history(site);
    expect(runs.map((r) => [r.slug, r.origin, r.state, r.output])).toEqual([['mailer', 'zip', 'done', 'mailed']]);
  }, 60_000);
});

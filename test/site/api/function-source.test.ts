/**
 * An endpoint's custom function is read again only when its file changed (src/site/api/run-endpoint.ts,
 * D212): whatever way the file changes, the next request runs the new text. A settled file (its times
 * well in the past) is the one the cache keeps; these edits keep its size and put its mtime back.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serveApi } from '../../../src/site/api/serve-api.js';
import { eachBackend } from '../support/backends.js';
import { endpoint, siteWith, type TestSite } from '../support/site-with.js';

const HOUR_AGO = new Date(Date.now() - 3600_000);

eachBackend('a custom function read once, again when its file changed', (backend) => {
  let site: TestSite;
  let file: string;
  beforeAll(async () => {
    site = await siteWith(backend, {
      edit: endpoint('said', 'said'),
      files: { 'functions/said.tpl': '{return value="one"}' },
    });
    file = path.join(site.dir, 'functions', 'said.tpl');
    utimesSync(file, HOUR_AGO, HOUR_AGO);
  });
  afterAll(() => site.done());

  const ask = async () => {
    const r = await serveApi(site, {
      method: 'GET',
      path: '/rcms-api/1/said',
      query: '',
      headers: new Map(),
      body: new Uint8Array(),
      basePath: '/',
    });
    return [r.status, JSON.parse(r.body) as unknown];
  };
  /** The same size and the same mtime as before: only the ctime (or the inode) tells. */
  const sameStamp = (text: string, how: 'in place' | 'renamed') => {
    const before = statSync(file);
    if (how === 'in place') writeFileSync(file, text);
    else {
      writeFileSync(`${file}.new`, text);
      utimesSync(`${file}.new`, before.atime, before.mtime);
      renameSync(`${file}.new`, file);
    }
    utimesSync(file, before.atime, before.mtime);
    expect(statSync(file).size).toBe(before.size);
  };

  it('an edit that keeps the size and the mtime shows at the next request', async () => {
    // Every edit here is 10 s old to the cache: settled, so it is kept (a change of ctime is the
    // file's own clock, which the fake one leaves alone).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10_000);
    try {
      expect(await ask()).toEqual([200, 'one']);
      expect(await ask()).toEqual([200, 'one']);
      sameStamp('{return value="two"}', 'in place');
      expect(await ask()).toEqual([200, 'two']);
      sameStamp('{return value="tri"}', 'renamed');
      expect(await ask()).toEqual([200, 'tri']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a file changed just now is read at every request; one removed is gone at once', async () => {
    writeFileSync(file, '{return value="new"}');
    expect(await ask()).toEqual([200, 'new']);
    writeFileSync(file, '{return value="now"}');
    expect(await ask()).toEqual([200, 'now']);
    rmSync(file);
    expect(await ask()).toEqual([
      500,
      { errors: [{ code: 'function_not_found', message: 'functions/said.tpl does not exist' }] },
    ]);
    writeFileSync(file, '{return value="back"}');
    expect(await ask()).toEqual([200, 'back']);
  });
});

/**
 * examples/embedder-plugin.mjs, the runnable example of docs/plugins-for-embedders.md: run as an
 * embedder runs it, importing the built package by its name (after `npm run build`).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, requireBuild } from '../support/bin.js';

beforeAll(requireBuild);

describe('the embedder plugin example (examples/embedder-plugin.mjs)', () => {
  it('renders with its own tag and modifier, shows the plugin\'s error at its line, and its examples pass', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'examples/embedder-plugin.mjs')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(['<li>Tea: 1,200円</li><li>Cup: 800円</li>', 'missing.tpl:1:1: error E_NOT_FOUND: no product 9', 'ok shop_product #1', 'ok yen #1', ''].join('\n'));
    expect(r.status).toBe(0);
  }, 30_000);
});

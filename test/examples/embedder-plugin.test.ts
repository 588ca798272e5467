/**
 * examples/embedder-plugin.mjs, the shop of docs/plugins-for-embedders.md: a tag and a modifier
 * of the embedder's own, run as a user runs it (the built package, imported by name). What it
 * prints is what the guide shows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runExample } from '../support/bin.js';
import { outputBlock } from '../support/doc-blocks.js';

let r: ReturnType<typeof runExample>;
beforeAll(() => {
  r = runExample('examples/embedder-plugin.mjs');
}, 70_000);

describe('examples/embedder-plugin.mjs', () => {
  it('runs to the end', () => {
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('renders with its own tag and modifier', () => {
    expect(r.stdout).toContain('<li>Tea: 1,200円</li><li>Cup: 800円</li>');
  });

  it("shows its plugin's refusal as a template error at the tag", () => {
    expect(r.stdout).toContain('missing.tpl:1:1: error E_NOT_FOUND: no product 9');
  });

  it('runs the declared examples, which pass', () => {
    expect(r.stdout).toContain('ok shop_product #1\nok yen #1\n');
  });

  it('prints what docs/plugins-for-embedders.md shows', () => {
    expect(r.stdout).toBe(outputBlock('docs/plugins-for-embedders.md', 'node examples/embedder-plugin.mjs').text);
  });
});

/**
 * examples/host.mjs, the host of docs/host-adapters.md: secrets, files and HTTP adapters for two
 * tenants, run as a user runs it (the built package, imported by name). What it prints is what
 * the guide shows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runExample } from '../support/bin.js';
import { outputBlock } from '../support/doc-blocks.js';

let r: ReturnType<typeof runExample>;
beforeAll(() => {
  r = runExample('examples/host.mjs');
}, 70_000);

describe('examples/host.mjs', () => {
  it('runs to the end', () => {
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it("sends shop A's key to the API and never shows it to the template", () => {
    expect(r.stdout).toContain('Weather: sunny (the API saw "Bearer [secret:WEATHER_KEY redacted]")');
    expect(r.stdout).not.toContain('key-of-shop-a');
  });

  it('keeps each tenant to its own files, templates and secrets', () => {
    expect(r.stdout).toContain('shop-a:\nVisits: [visit][visit]\n<footer>Shop A</footer>');
    expect(r.stdout).toContain('shop-b:\nVisits: [visit]\n<footer>Shop B</footer>');
    expect(r.stdout).toContain('shop-b: page.tpl:2:3: error E_SECRET_NOT_FOUND');
  });

  it('refuses the metadata address', () => {
    expect(r.stdout).toContain('error E_SSRF_DENIED');
  });

  it('prints what docs/host-adapters.md shows', () => {
    expect(r.stdout).toBe(outputBlock('docs/host-adapters.md', 'node examples/host.mjs').text);
  });
});

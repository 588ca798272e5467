/**
 * What a render answers across the boundary (src/runtime/isolate-entry.ts, D273): only what it
 * has. Warnings and their positions, logs and theirs, and the {return} value travel when there
 * are some; the host reads absence as none (src/engine.ts), so an empty render copies one field out.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { IsolateHost } from '../../src/sandbox/isolate-host.js';
import { renderRequest } from '../../src/sandbox/request.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { compile } from '../../src/compiler/index.js';
import { createEngine } from '../../src/index.js';

const host = new IsolateHost(128);
const engine = createEngine({ workers: 0 });
afterAll(async () => {
  host.retire();
  await engine.close();
});

async function raw(source: string, vars: Record<string, unknown> = {}) {
  const id = `t${Math.random().toString(36).slice(2)}`;
  const r = compile(source, { name: id, id });
  const t = { id, code: r.code, filename: `${id}.js`, hostFree: r.manifest.host.length === 0 };
  const request = renderRequest({
    templateName: id,
    now: 1700000000,
    site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
    vars,
    seed: Array.from({ length: 16 }, () => 7),
  });
  const response = await host.render(t, request, DEFAULT_LIMITS, null);
  delete response.cpuMs; // the host's, not the isolate's
  return response;
}

describe("a render's answer", () => {
  it('is its output alone when nothing else happened', async () => {
    expect(await raw('a{$x}b', { x: 1 })).toEqual({ output: 'a1b' });
    expect(await raw('')).toEqual({ output: '' });
  });

  it('carries warnings with their positions when there are some', async () => {
    const r = await raw('{$a|@number_format}', { a: [1] });
    expect(Object.keys(r).sort()).toEqual(['output', 'warnings', 'warningsAt']);
    expect(r.warnings).toHaveLength(1);
    expect(r.warningsAt).toHaveLength(1);
  });

  it('carries log lines with their positions when there are some', async () => {
    const r = await raw("{logger msg1='a' msg2='b'}x");
    expect(Object.keys(r).sort()).toEqual(['logs', 'logsAt', 'output']);
    expect(r.logs?.map((l) => l.message)).toEqual(['a', 'b']);
    expect(r.logsAt).toHaveLength(2);
  });

  it('carries a {return} value, null included when JSON was asked for', async () => {
    expect(await raw('{return value=$x}', { x: [1, 2] })).toEqual({ output: '', returnValue: [1, 2] });
    expect(await raw('{return value=0}')).toEqual({ output: '', returnValue: 0 });
    const e = await engine.render('{$x}', { vars: { x: 'y' }, returnJson: true });
    expect(e.returnJson).toBe('null');
  });

  it('reads as empty lists and a null value on the engine side', async () => {
    const r = await engine.render('plain');
    expect(r).toMatchObject({ output: 'plain', warnings: [], logs: [], returnValue: null });
  });
});

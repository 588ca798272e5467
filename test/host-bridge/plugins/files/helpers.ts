import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'vitest';
import type { Engine, RenderOptions } from '../../../../src/index.js';
import { TemplateError } from '../../../../src/errors.js';
import { testEngine } from '../../../support/engine.js';
import { createFilesTestHost, type FilesTestHost, type FilesTestHostOptions } from '../../../support/host/files.js';

export interface Setup {
  fh: FilesTestHost;
  engine: Engine;
  /** Real path of a virtual path of tenant "default". */
  real(vpath: string, tenant?: string): string;
  put(vpath: string, content: string | Uint8Array, tenant?: string): void;
  render(tpl: string, opts?: RenderOptions): Promise<string>;
  /** The error code of a render that must fail (and its message must not name host paths). */
  fail(tpl: string, opts?: RenderOptions): Promise<string>;
  logs(tpl: string, opts?: RenderOptions): Promise<{ output: string; logs: { level: string; message: string }[] }>;
}

export function setup(o: FilesTestHostOptions = {}): Setup {
  const fh = createFilesTestHost(o);
  const engine = testEngine({ host: fh.host });
  const real = (vpath: string, tenant = 'default') => path.join(fh.rootOf(tenant), vpath.replace(/^\/?files\//, ''));
  return {
    fh,
    engine,
    real,
    put(vpath, content, tenant = 'default') {
      const p = real(vpath, tenant);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, content);
    },
    async render(tpl, opts) {
      return (await engine.render(tpl, opts)).output;
    },
    async fail(tpl, opts) {
      try {
        const r = await engine.render(tpl, opts);
        throw new Error(`expected an error, got output ${JSON.stringify(r.output.slice(0, 200))}`);
      } catch (e) {
        if (!(e instanceof TemplateError)) throw e;
        expect(e.message).not.toContain(fh.base);
        expect(e.message).not.toMatch(/\/tmp\/|node_modules|\bat \w+ \(/);
        return e.code;
      }
    },
    async logs(tpl, opts) {
      const r = await engine.render(tpl, opts);
      return { output: r.output, logs: r.logs };
    },
  };
}

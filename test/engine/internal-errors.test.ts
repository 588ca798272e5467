/**
 * Nothing but a TemplateError leaves compile() or engine.render (HH-07): what else is thrown on
 * the way (an embedder's lookup function, variables that cannot cross to the sandbox) becomes
 * E_INTERNAL, without the thrown message or stack (they name host files); the embedder finds it
 * as the error's `cause`.
 */
import { describe, expect, it } from 'vitest';
import { compile, createEngine, TemplateError } from '../../src/index.js';

const HOST_PATH = '/srv/tenants/acme/templates/part.tpl';
const failingLookup = (): string => {
  throw new Error(`ENOENT: no such file or directory, open '${HOST_PATH}'`);
};

describe('internal errors', () => {
  it('compile() turns a throw during the compile into an E_INTERNAL diagnostic of that template', () => {
    const r = compile('a\n{include file="part.tpl"}', { name: 'page.tpl', templates: failingLookup });
    expect(r.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'E_INTERNAL',
        message: 'internal compiler error (Error): the template could not be compiled',
        name: 'page.tpl',
        line: 0,
        column: 0,
        frame: '',
      },
    ]);
  });

  it('engine.render rejects with a TemplateError, never the thrown error, and keeps it as the cause', async () => {
    const engine = createEngine({ workers: 1, templates: failingLookup });
    try {
      const compileFailure = await engine
        .render('{include file="part.tpl"}', { name: 'page.tpl' })
        .catch((e: unknown) => e);
      expect(compileFailure).toBeInstanceOf(TemplateError);
      expect(compileFailure).toMatchObject({ code: 'E_INTERNAL', template: 'page.tpl' });
      // Variables the worker cannot be sent (a function): the pool's postMessage throws on the host.
      const sendFailure = await engine
        .render('{$f}', { name: 'page.tpl', vars: { f: () => 1 } })
        .catch((e: unknown) => e);
      expect(sendFailure).toBeInstanceOf(TemplateError);
      expect(sendFailure).toMatchObject({
        code: 'E_INTERNAL',
        template: 'page.tpl',
        line: 0,
        message: 'internal error (Error) while rendering the template',
      });
      expect((sendFailure as TemplateError).cause).toBeInstanceOf(Error);
      for (const e of [compileFailure, sendFailure] as TemplateError[]) {
        expect(e.format()).not.toContain(HOST_PATH);
        expect(e.format()).not.toMatch(/\n\s+at /);
      }
    } finally {
      await engine.close();
    }
  });
});

/**
 * The package's three entries, imported by name from the build (`npm run build`, which CI runs
 * before the tests) the way an embedder imports them: Node resolves `smartcage` inside its own
 * folder through package.json "name" and "exports". Each import runs in a fresh process that
 * records every module it loads, so what an entry drags in (ajv, the harness) shows too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const PROBE = `
import { registerHooks } from 'node:module';
const loaded = [];
registerHooks({ resolve(spec, ctx, next) { const r = next(spec, ctx); loaded.push(r.url); return r; } });
const m = await import(process.argv[1]);
const kinds = Object.fromEntries(Object.keys(m).sort().map((k) => [k, typeof m[k]]));
process.stdout.write(JSON.stringify({ kinds, loaded }));
`;

interface Probe {
  kinds: Record<string, string>;
  /** Module URLs below the package folder, relative to it (dist/src/..., node_modules/...). */
  loaded: string[];
}

function load(specifier: string): Probe {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', PROBE, specifier], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`import('${specifier}') failed: ${r.stderr}`);
  const p = JSON.parse(r.stdout) as Probe;
  const base = new URL('.', `file://${ROOT.endsWith('/') ? ROOT : `${ROOT}/`}`).href;
  return { kinds: p.kinds, loaded: p.loaded.filter((u) => u.startsWith(base)).map((u) => u.slice(base.length)) };
}

const built = ['dist/src/index.js', 'dist/src/security/entry.js', 'dist/src/forms/entry.js'].every((f) =>
  existsSync(join(ROOT, f)),
);

describe('package entries, imported by name', () => {
  it('are built (npm run build)', () => {
    expect(built, 'dist/ lacks an entry: run `npm run build` before these tests').toBe(true);
  });

  it("'smartcage' is the engine: no harness, no forms, no ajv", () => {
    const p = load('smartcage');
    expect(p.kinds).toEqual({
      BridgeError: 'function',
      ChromiumBrowser: 'function',
      DEFAULT_LIMITS: 'object',
      ENGINE_VERSION: 'string',
      EgressGuard: 'function',
      HOST_CALL_CHANNEL: 'string',
      KNOWN_ROOTS: 'object',
      PhpArray: 'function',
      PhpFloat: 'function',
      PhpObject: 'function',
      PluginAnswerError: 'function',
      RENDER_CHANNEL: 'string',
      ROW_BUDGETS: 'object',
      S3Files: 'function',
      SITE_DEFAULTS: 'object',
      SendWindow: 'function',
      SmtpConfigError: 'function',
      SmtpPartialError: 'function',
      TEMPLATE_LOG_CHANNEL: 'string',
      TemplateError: 'function',
      TenantFiles: 'function',
      TesseractOcr: 'function',
      VisionOcr: 'function',
      checkBackupBounds: 'function',
      compile: 'function',
      createEngine: 'function',
      currentRenderSignal: 'function',
      definePlugin: 'function',
      formatDiagnostic: 'function',
      fromJS: 'function',
      laterFace: 'function',
      notNow: 'function',
      nowFace: 'function',
      parseVirtualPath: 'function',
      runLater: 'function',
      runNow: 'function',
      runPluginExamples: 'function',
      smtpMailAdapter: 'function',
      smtpSender: 'function',
      toBytes: 'function',
      toJS: 'function',
      verifyCredentialJwt: 'function',
      wait: 'function',
      waitAll: 'function',
    });
    expect(p.loaded).toContain('dist/src/engine.js');
    expect(p.loaded.filter((f) => /^dist\/src\/(security|forms|forms-ui)\/|^node_modules\/ajv/.test(f))).toEqual([]);
  });

  it("'smartcage/security' is the harness and its report", () => {
    const p = load('smartcage/security');
    expect(p.kinds).toEqual({ formatSecurityReport: 'function', runSecurityHarness: 'function' });
    expect(p.loaded).toContain('dist/src/security/harness.js');
  });

  it("'smartcage/forms' is the form model, the validator and the validator precompiler", () => {
    const p = load('smartcage/forms');
    for (const name of [
      'createValidator',
      'buildForm',
      'lintSchema',
      'initialValue',
      'validatorFromCompiled',
      'standaloneValidatorScript',
      'FormSchemaError',
    ]) {
      expect(p.kinds[name], name).toBe('function');
    }
    expect(p.loaded.some((f) => f.startsWith('node_modules/ajv/'))).toBe(true);
    expect(p.loaded.filter((f) => /^dist\/src\/(security|forms-ui)\//.test(f))).toEqual([]);
  });

  it("'smartcage/site.schema.json' is site.json's schema, for editors (`$schema`)", () => {
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('smartcage/site.schema.json', { with: { type: 'json' } }); process.stdout.write(m.default.title);",
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('site.json');
  });

  it("the command line's entry loads no ajv until a forms command runs", () => {
    const p = load(join(ROOT, 'dist/src/cli/main.js'));
    expect(p.kinds.main).toBe('function');
    expect(p.loaded.filter((f) => /^dist\/src\/(security|forms|forms-ui)\/|^node_modules\/ajv/.test(f))).toEqual([]);
  });
});

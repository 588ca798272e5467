/**
 * Shared setup of the browser tests: builds dist/forms-ui.js, starts the `smartcage serve`
 * logic in-process on a random port over a temporary files folder, and launches Debian's
 * Chromium headless through playwright-core (docs: environment.md).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startFormsServer, type FormsServer } from '../../src/forms-ui/server/app.js';
import { standaloneValidatorScript } from '../../src/forms/standalone.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
export const SCREENSHOTS = join(ROOT, 'test-artifacts', 'screenshots');
const CHROMIUM_MISSING = `Chromium not found at ${CHROMIUM}: install chromium: apt-get install -y chromium, or set CHROMIUM_PATH`;
const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * `describe` for browser tests. Without Chromium the suite is one FAILING test that says how
 * to install it, never skipped tests: a machine without a browser must not look green
 * (always, not only under CI; .ci/run installs chromium).
 */
export function describeBrowser(name: string, fn: () => void): void {
  if (hasChromium) describe(name, fn);
  else
    describe(name, () =>
      it('needs Chromium', () => {
        throw new Error(CHROMIUM_MISSING);
      }),
    );
}

/** A plain (non-persistent) headless Chromium, for tests that need several contexts (time zones). */
export async function launchBrowser(): Promise<Browser> {
  if (!hasChromium) throw new Error(CHROMIUM_MISSING);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS });
}

/**
 * Registers the precompiled validator of `schema` in the page (the script `/validators/NAME.js`
 * serves for a sample; docs/decisions.md D45), so a form mounted on a page with the strict CSP validates.
 * page.evaluate is not subject to the page's CSP, and the script needs no eval anyway.
 */
async function injectValidator(page: Page, schema: unknown): Promise<void> {
  await page.evaluate(standaloneValidatorScript(schema));
}

export interface Harness {
  server: FormsServer;
  context: BrowserContext;
  /** The folder served as /files/user/ (the `user/` of the server's storage folder). */
  filesDir: string;
  newPage(): Promise<Page & { alerts: string[]; uncaught: string[] }>;
  close(): Promise<void>;
}

/**
 * One harness for the enclosing describe block: started before its tests, closed after them.
 * The returned object stands for it (its members are read when a test runs).
 */
export function useHarness(): Harness {
  let current: Harness | undefined;
  beforeAll(async () => {
    current = await startHarness();
  }, 120_000);
  afterAll(async () => {
    await current?.close();
  });
  const get = (): Harness => {
    if (!current) throw new Error('the browser harness is not started: use it inside a test');
    return current;
  };
  return {
    get server() {
      return get().server;
    },
    get context() {
      return get().context;
    },
    get filesDir() {
      return get().filesDir;
    },
    newPage: () => get().newPage(),
    close: () => get().close(),
  };
}

export function buildBundle(): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-forms-ui.mjs')], { stdio: 'inherit' });
}

async function startHarness(): Promise<Harness> {
  if (!hasChromium) throw new Error(CHROMIUM_MISSING);
  buildBundle();
  mkdirSync(SCREENSHOTS, { recursive: true });
  const storageDir = mkdtempSync(join(tmpdir(), 'smartcage-files-'));
  const filesDir = join(storageDir, 'user');
  mkdirSync(join(filesDir, 'img'), { recursive: true });
  // a 1x1 PNG
  writeFileSync(
    join(filesDir, 'img', 'photo.png'),
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    ),
  );
  writeFileSync(join(filesDir, 'readme.txt'), 'hello');
  writeFileSync(join(filesDir, '.secret'), 'hidden');
  const server = await startFormsServer({ storageDir });
  const userData = mkdtempSync(join(tmpdir(), 'smartcage-chromium-'));
  const context = await chromium.launchPersistentContext(userData, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1000, height: 900 },
    args: LAUNCH_ARGS,
  });
  return {
    server,
    context,
    filesDir,
    async newPage() {
      const page = (await context.newPage()) as Page & { alerts: string[]; uncaught: string[] };
      page.setDefaultTimeout(5_000);
      page.alerts = [];
      page.uncaught = [];
      page.on('dialog', (d) => {
        page.alerts.push(d.message());
        void d.accept();
      });
      page.on('pageerror', (e) => page.uncaught.push(e.message));
      return page;
    },
    async close() {
      await context.close();
      await server.close();
      rmSync(userData, { recursive: true, force: true });
      rmSync(storageDir, { recursive: true, force: true });
    },
  };
}

/** Records CSP violations of the page (an init script: it runs before the page's own). */
export async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const console: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|unsafe-eval/i.test(m.text())) console.push(m.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return async () => [
    ...console,
    ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)),
  ];
}

/** The JSON in the element's hidden textarea (what the surrounding form posts). */
export async function storedValue(page: Page, selector = 'json-field-form'): Promise<unknown> {
  const text = await page.locator(`${selector} > textarea.jf-value`).inputValue();
  return JSON.parse(text) as unknown;
}

/**
 * Opens a blank page (the sample list, which loads the bundle and has the strict CSP) holding
 * one form with `schema`, with its precompiled validator registered first (unless
 * `precompiled: false`: then the CSP leaves the form without a browser validator).
 */
export async function mountForm(
  page: Page,
  baseUrl: string,
  schema: unknown,
  attrs: Record<string, string> = {},
  opts: { precompiled?: boolean } = {},
): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.waitForFunction(() => customElements.get('json-field-form') !== undefined);
  if (opts.precompiled !== false) await injectValidator(page, schema);
  // The form is built from a timer, not inside page.evaluate: code that evaluate runs directly
  // is exempt from the page's CSP, and the form must meet the CSP as a page's own script would.
  await page.evaluate(
    ({ schema, attrs }) =>
      new Promise<void>((done) =>
        setTimeout(() => {
          document.body.replaceChildren();
          const form = document.createElement('form');
          form.id = 'f';
          const el = document.createElement('json-field-form');
          el.setAttribute('name', 'v');
          for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
          el.setAttribute('schema', JSON.stringify(schema));
          form.appendChild(el);
          const submit = document.createElement('button');
          submit.type = 'submit';
          submit.id = 'save';
          submit.textContent = 'Save';
          form.appendChild(submit);
          const w = window as unknown as { submits: Array<{ blocked: boolean; posted: string }> };
          w.submits = [];
          form.addEventListener('submit', (e) => {
            w.submits.push({ blocked: e.defaultPrevented, posted: String(new FormData(form).get('v')) });
            e.preventDefault();
          });
          document.body.appendChild(form);
          done();
        }, 0),
      ),
    { schema, attrs },
  );
}

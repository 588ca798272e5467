/**
 * `/playground` of `smartcage serve`: paste a template and JSON variables, see the output, the
 * warnings and the JavaScript the compiler made. The render is a render like any other: the
 * sandbox (a worker process's isolate) and the default limits, with no site and the host adapters
 * the server is given (`smartcage serve`: none, as `smartcage render` without --site). The page's
 * CSP is PAGE_CSP; the output is shown in a frame sandboxed without scripts.
 *
 * POST /playground with `{"template": "...", "vars": "{...}"}` (JSON) answers JSON (the page's
 * script); a form POST (no script) answers the page with the result filled in.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { page } from '../../forms-ui/server/pages.js';
import { readBytesOrRefuse } from '../../http/body.js';
import { esc } from '../../http/html.js';
import { isJsonObject, parseJson } from '../../http/json.js';
import { sendJson, sendPage, sendText } from '../../http/send.js';
import { createEngine, TemplateError, formatDiagnostic, type Engine, type HostAdapters } from '../../index.js';
import { LOOP_SCRIPT_PATH } from './loop-script.js';

export const PLAYGROUND_PATH = '/playground';
/** A playground request's body, at most (the template and its variables). */
const MAX_BODY = 1024 * 1024;
const NAME = 'playground.tpl';

/** What a playground render gives back. */
export interface PlaygroundAnswer {
  output: string;
  /** Compile and render warnings, each in the house format with its line and column. */
  warnings: string[];
  /** The generated JavaScript; empty when the template did not compile. */
  code: string;
  /** The error that stopped the compile or the render, in the house format. */
  error?: string;
}

const SAMPLE = {
  template: '{foreach from=$items item=i}\n  <p>{$i.name|escape} costs {$i.price|number_format}</p>\n{/foreach}\n',
  vars: '{"items": [{"name": "Tea", "price": 1200}, {"name": "Cake & cream", "price": 450}]}',
};

export class Playground {
  private engine: Engine | undefined;

  /** `host`: what a playground template's privileged plugins may reach (`{}`: none of it). */
  constructor(private readonly host: HostAdapters) {}

  /** Answers /playground; false for any other path. */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    if (url.pathname !== PLAYGROUND_PATH) return false;
    if (req.method === 'GET' || req.method === 'HEAD') {
      this.page(res, SAMPLE);
      return true;
    }
    if (req.method !== 'POST') {
      sendText(res, 405, 'GET or POST', { allow: 'GET, POST' });
      return true;
    }
    const bytes = await readBytesOrRefuse(req, res, MAX_BODY, () =>
      sendJson(res, 413, { error: `the request is larger than ${MAX_BODY} bytes` }),
    );
    if (bytes === undefined) return true;
    const body = bytes.toString('utf8');
    const json = (req.headers['content-type'] ?? '').startsWith('application/json');
    let input: { template: string; vars: string };
    if (json) {
      const parsed = parseJson(body);
      if (!parsed.ok) {
        sendJson(res, 400, { error: 'the request is not JSON' });
        return true;
      }
      const p = parsed.value;
      if (!isJsonObject(p) || typeof p.template !== 'string') {
        sendJson(res, 400, { error: 'the request needs "template" (a string) and may have "vars" (JSON text)' });
        return true;
      }
      input = { template: p.template, vars: typeof p.vars === 'string' ? p.vars : JSON.stringify(p.vars ?? {}) };
    } else {
      const form = new URLSearchParams(body);
      input = { template: form.get('template') ?? '', vars: form.get('vars') ?? '' };
    }
    const answer = await this.run(input.template, input.vars);
    if (json) sendJson(res, 200, answer);
    else this.page(res, input, answer);
    return true;
  }

  async close(): Promise<void> {
    const engine = this.engine;
    this.engine = undefined;
    await engine?.close();
  }

  /** Compiles (for the code) and renders `template` with `vars` (JSON text; empty: none). */
  async run(template: string, vars: string): Promise<PlaygroundAnswer> {
    if (vars.trim() !== '') {
      const v = parseJson(vars);
      const problem = !v.ok ? v.message : isJsonObject(v.value) ? undefined : 'not an object';
      if (problem !== undefined)
        return { output: '', warnings: [], code: '', error: `the variables must be a JSON object (${problem})` };
    }
    this.engine ??= createEngine({ workers: 1, host: this.host });
    let code = '';
    try {
      const compiled = this.engine.compile(template, { name: NAME });
      code = compiled.code;
      const r = await this.engine.render(template, { name: NAME, vars: vars.trim() === '' ? undefined : vars });
      const warnings = r.diagnostics.filter((d) => d.severity === 'warning').map((d) => formatDiagnostic(d));
      return { output: r.output, warnings, code };
    } catch (e) {
      if (!(e instanceof TemplateError)) throw e;
      return { output: '', warnings: [], code, error: e.format() };
    }
  }

  private page(res: ServerResponse, input: { template: string; vars: string }, a?: PlaygroundAnswer): void {
    sendPage(
      res,
      200,
      page(
        'en',
        'Playground',
        `<h1>Playground</h1>
<p>A template and its variables, rendered in the sandbox with the default limits (no site: as <code>smartcage render</code>).</p>
<form id="playground" method="post" action="${PLAYGROUND_PATH}" class="paste">
  <p><label for="pg-template">Template</label><br><textarea id="pg-template" name="template" rows="10" spellcheck="false">${esc(input.template)}</textarea></p>
  <p><label for="pg-vars">Variables (a JSON object)</label><br><textarea id="pg-vars" name="vars" rows="4" spellcheck="false">${esc(input.vars)}</textarea></p>
  <p><button type="submit">Render</button> <span id="pg-status" role="status"></span></p>
</form>
<h2>Output</h2>
<p class="problems" id="pg-error">${esc(a?.error ?? '')}</p>
<iframe id="pg-output" title="The output, as a page" sandbox srcdoc="${esc(a?.output ?? '')}" style="width:100%;height:12em;border:1px solid #888"></iframe>
<details><summary>As text</summary><pre id="pg-output-text">${esc(a?.output ?? '')}</pre></details>
<h2>Warnings</h2>
<pre id="pg-warnings">${esc(a ? a.warnings.join('\n\n') || 'None.' : '')}</pre>
<h2>Generated JavaScript</h2>
<pre id="pg-code">${esc(a?.code ?? '')}</pre>`,
        [LOOP_SCRIPT_PATH],
      ),
    );
  }
}

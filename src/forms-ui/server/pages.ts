/** The HTML of `smartcage serve`: the list of sample schemas and a demo page per sample. */
import type { JsonSchema } from '../../forms/index.js';
import { refusedSamples, samples } from '../../forms/samples/index.js';

/**
 * The pages' Content-Security-Policy (docs/decisions.md D45): scripts only from this origin and no
 * 'unsafe-eval' (validators come precompiled from /validators/), no inline script. Styles may
 * be inline: the element adds its default `<style>` and sizes the rich-text editor.
 */
export const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string, scripts: string[] = []): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>body{font:14px/1.5 system-ui,sans-serif;max-width:52em;margin:24px auto;padding:0 16px}
.demo-options{margin:0 0 16px;padding:8px;background:#eee}pre{white-space:pre-wrap}</style>
${scripts.map((s) => `<script src="${esc(s)}" defer></script>\n`).join('')}<script src="/forms-ui.js" defer></script></head>
<body><main>${body}</main></body></html>`;
}

export function listPage(): string {
  const items = Object.keys(samples)
    .map((name) => `<li><a href="/demo/${esc(name)}">${esc(samples[name]!.title ?? name)}</a> (${esc(name)})${refusedSamples.includes(name) ? ' - refused by the form UI on purpose' : ''}</li>`)
    .join('\n');
  return page('smartcage forms: samples', `<h1>JSON-schema form samples</h1><ul>${items}</ul>`);
}

export function demoPage(name: string, schema: JsonSchema, lang: string): string {
  const title = schema.title ?? name;
  return page(
    `${title} - smartcage forms`,
    `<h1>${esc(title)}</h1>
<p><a href="/">All samples</a> · <a href="/demo/${esc(name)}?lang=${lang === 'ja' ? 'en' : 'ja'}">${lang === 'ja' ? 'English' : '日本語'}</a></p>
<form data-smartcage-demo method="post" action="#" lang="${lang === 'ja' ? 'ja' : 'en'}">
  <div class="demo-options"><label><input type="checkbox" id="build-ui" checked> Build UI from JSON schema</label></div>
  <json-field-form name="ext_col" schema="${esc(JSON.stringify(schema))}"></json-field-form>
  <p><button type="submit" id="save">Save</button></p>
</form>
<h2>Submitted JSON</h2><pre id="submitted"></pre><p id="server-result" role="status"></p>`,
    [`/validators/${encodeURIComponent(name)}.js`],
  );
}

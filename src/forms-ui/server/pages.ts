/**
 * The HTML of `smartcage serve`: the list of schemas, a demo page per schema and the paste box,
 * in the page's language (`?lang=ja`: the pages' own words from ../demo-text.ts).
 */
import type { JsonSchema } from '../../forms/index.js';
import { esc } from '../../http/html.js';
import { demoText } from '../demo-text.js';
import { PAGE_CSS } from '../style.js';
import type { Lang } from '../ui-text.js';

/** A schema with a demo page: its name in /demo/NAME, and whether the form UI refuses it on purpose. */
export interface PageSchema {
  name: string;
  schema: JsonSchema;
  refused?: boolean;
  /** From the paste box: titled 'Pasted schema' when it has no title of its own. */
  pasted?: boolean;
}

const langQuery = (lang: Lang) => (lang === 'ja' ? '?lang=ja' : '');

/** A page of the app: its title, body and scripts (then /forms-ui.js), served under PAGE_CSP (src/http/csp.ts). */
export function page(lang: Lang, title: string, body: string, scripts: string[] = []): string {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${PAGE_CSS}</style>
${scripts.map((s) => `<script src="${esc(s)}" defer></script>\n`).join('')}<script src="/forms-ui.js" defer></script></head>
<body><main>${body}</main></body></html>`;
}

/**
 * The link to the same page in the other language. A query of its own, relative to the page, so
 * that it stays on the page wherever the forms app is mounted (at `/forms/` under `serve --site`
 * an absolute `/` was the site's index, in English).
 */
function languageLink(lang: Lang): string {
  const other = lang === 'ja' ? 'en' : 'ja';
  return `<a href="?lang=${other}" lang="${other}">${demoText(lang).otherLanguage}</a>`;
}

function schemaList(list: readonly PageSchema[], lang: Lang): string {
  const t = demoText(lang);
  const items = list.map(
    (s) =>
      `<li><a href="/demo/${esc(encodeURIComponent(s.name))}${langQuery(lang)}">${esc(s.schema.title ?? s.name)}</a> (${esc(s.name)})${s.refused ? ` - ${t.refusedOnPurpose}` : ''}</li>`,
  );
  return `<ul>${items.join('\n')}</ul>`;
}

export function listPage(lang: Lang, samples: readonly PageSchema[], own: readonly PageSchema[]): string {
  const t = demoText(lang);
  const mine = own.length > 0 ? `<h2>${t.yourSchemas}</h2>${schemaList(own, lang)}<h2>${t.samplesHeading}</h2>` : '';
  return page(
    lang,
    `${t.siteTitle}: ${t.samplesHeading}`,
    `<h1>${own.length > 0 ? t.siteTitle : t.samplesHeading}</h1>
<p><a href="/paste${langQuery(lang)}">${t.pasteLink}</a> · ${languageLink(lang)}</p>
${mine}${schemaList(samples, lang)}`,
  );
}

export function demoPage(s: PageSchema, lang: Lang): string {
  const t = demoText(lang);
  const title = s.schema.title ?? (s.pasted ? t.pastedTitle : s.name);
  return page(
    lang,
    `${title} - ${t.siteTitle}`,
    `<h1>${esc(title)}</h1>
<p><a href="/${langQuery(lang)}">${t.allSamples}</a> · ${languageLink(lang)}</p>
<form data-smartcage-demo method="post" action="#">
  <div class="demo-options"><label><input type="checkbox" id="build-ui" checked> ${t.buildUi}</label></div>
  <json-field-form name="ext_col" schema="${esc(JSON.stringify(s.schema))}"></json-field-form>
  <p><button type="submit" id="save">${t.save}</button></p>
</form>
<h2>${t.submitted}</h2><pre id="submitted"></pre><p id="server-result" role="status"></p>`,
    [`/validators/${encodeURIComponent(s.name)}.js`],
  );
}

/** The paste box: a schema posted to /paste becomes a demo page; `problems` say why the last one did not. */
export function pastePage(lang: Lang, text = '', problems: readonly string[] = []): string {
  const t = demoText(lang);
  const shown =
    problems.length > 0
      ? `<div class="problems" role="alert" id="paste-problems"><p>${esc(problems[0]!)}</p>${
          problems.length > 1
            ? `<ul>${problems
                .slice(1)
                .map((p) => `<li>${esc(p)}</li>`)
                .join('')}</ul>`
            : ''
        }</div>`
      : '';
  return page(
    lang,
    `${t.pasteHeading} - ${t.siteTitle}`,
    `<h1>${t.pasteHeading}</h1>
<p><a href="/${langQuery(lang)}">${t.allSamples}</a> · ${languageLink(lang)}</p>
<p>${t.pasteIntro}</p>
${shown}<form class="paste" method="post" action="/paste">
  <input type="hidden" name="lang" value="${lang}">
  <p><label for="schema-text">${t.pasteLabel}</label><br>
  <textarea id="schema-text" name="schema" rows="18" spellcheck="false" required${problems.length > 0 ? ' aria-describedby="paste-problems" aria-invalid="true"' : ''}>${esc(text)}</textarea></p>
  <p><button type="submit" id="show-form">${t.pasteButton}</button></p>
</form>`,
  );
}

/**
 * The form editor of a site's JSON-type extended columns (src/site/json-fields.ts), below where
 * the site is served:
 *
 * - `GET  ext/<group>/<slug>/`              the contents holding a value, and a box to open one
 * - `GET  ext/<group>/<slug>/<topic_id>`    `<json-field-form>` with the stored value, in a plain
 *                                           form that posts back (no script of the page's own)
 * - `POST ext/<group>/<slug>/<topic_id>`    `value` (JSON text) checked with the forms validator
 *                                           (createValidator, the same ajv the browser runs):
 *                                           saved and 303 back, or 422 with the errors, unsaved
 * - `GET  ext/<group>/<slug>/validator.js`  the schema's precompiled validator (D45: no eval)
 *
 * The browser checks too, but only the server's check decides what is stored.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createValidator, FormSchemaError, type ValidatedError } from '../../forms/index.js';
import { standaloneValidatorScript } from '../../forms/standalone.js';
import { page } from '../../forms-ui/server/pages.js';
import { BodyTooLarge, readBody } from '../../http/body.js';
import { PAGE_CSP as CSP } from '../../http/csp.js';
import { esc } from '../../http/html.js';
import { send } from '../../http/send.js';
import { langOf, type Lang } from '../../forms-ui/ui-text.js';
import type { Site } from '../open-site.js';
import {
  jsonContentTitle,
  jsonField,
  jsonValue,
  jsonValueContents,
  saveJsonValue,
  type JsonField,
} from '../json-fields.js';

/** A value posted from the editor: larger ones are refused before they are parsed. */
const MAX_VALUE = 1024 * 1024;

const WORDS = {
  en: {
    contents: 'Contents with a value',
    none: 'None yet.',
    open: 'Content id',
    openButton: 'Open',
    save: 'Save',
    saved: 'Saved.',
    notSaved: 'Not saved:',
    notJson: 'The value is not JSON.',
    back: 'All contents of this field',
    untitled: '(no title)',
    id: (id: number) => `ID ${id}`,
  },
  ja: {
    contents: '値のあるコンテンツ',
    none: 'まだありません。',
    open: 'コンテンツID',
    openButton: '開く',
    save: '保存',
    saved: '保存しました。',
    notSaved: '保存されていません:',
    notJson: '値がJSONではありません。',
    back: 'この項目のコンテンツ一覧',
    untitled: '（タイトルなし）',
    id: (id: number) => `ID ${id}`,
  },
} as const;

const html = (res: ServerResponse, status: number, body: string) =>
  send(res, status, 'text/html; charset=utf-8', body, { 'content-security-policy': CSP });

function titleOf(f: JsonField): string {
  const t = (f.schema as { title?: unknown } | null)?.title;
  return typeof t === 'string' ? `${t} (${f.slug})` : f.slug;
}

export class ExtFieldEditor {
  private readonly scripts = new Map<string, string>();

  /** `base`: where the site is served, ending with `/`. */
  constructor(
    private readonly site: Site,
    private readonly base: string,
  ) {}

  /** Answers `rest` (the path below the site) when it is the editor's; false otherwise. */
  async handle(req: IncomingMessage, res: ServerResponse, rest: string, url: URL): Promise<boolean> {
    const m = /^ext\/(\d{1,9})\/([a-z0-9_-]{1,63})\/(validator\.js|\d{1,12})?$/.exec(rest);
    if (!m) return false;
    const field = await jsonField(this.site, Number(m[1]), m[2]!);
    if (!field) {
      send(res, 404, 'text/plain; charset=utf-8', 'no such JSON field');
      return true;
    }
    const lang = langOf(url.searchParams.get('lang'));
    if (m[3] === 'validator.js') {
      send(res, 200, 'text/javascript; charset=utf-8', this.validatorScript(field));
    } else if (m[3] === undefined) {
      await this.list(res, field, url, lang);
    } else if (req.method === 'POST') {
      await this.save(req, res, field, Number(m[3]), lang);
    } else {
      const value = await jsonValue(this.site, field, Number(m[3]));
      html(
        res,
        200,
        await this.editorPage(
          field,
          Number(m[3]),
          lang,
          value === undefined ? '' : JSON.stringify(value),
          url.searchParams.has('saved') ? [WORDS[lang].saved] : [],
        ),
      );
    }
    return true;
  }

  /** A content's title in the page's language when it has one, else in the site's. */
  private titleLangs(lang: Lang): string[] {
    return [lang, this.site.config.lang];
  }

  private fieldPath(f: JsonField): string {
    return `${this.base}ext/${f.groupId}/${f.slug}/`;
  }

  private validatorScript(f: JsonField): string {
    const key = JSON.stringify(f.schema);
    let script = this.scripts.get(key);
    if (script === undefined) {
      try {
        script = standaloneValidatorScript(f.schema);
      } catch (e) {
        if (!(e instanceof FormSchemaError)) throw e;
        script = `/* no validator: ${e.localized.en.replace(/\*\//g, '* /')} */\n`;
      }
      this.scripts.set(key, script);
    }
    return script;
  }

  private async list(res: ServerResponse, f: JsonField, url: URL, lang: Lang): Promise<void> {
    const wanted = url.searchParams.get('topic_id') ?? '';
    if (/^\d{1,12}$/.test(wanted)) {
      res.writeHead(303, {
        location: `${this.fieldPath(f)}${wanted}${lang === 'ja' ? '?lang=ja' : ''}`,
        'cache-control': 'no-store',
      });
      res.end();
      return;
    }
    const w = WORDS[lang];
    const contents = await jsonValueContents(this.site, f, this.titleLangs(lang));
    const items = contents
      .map(
        (c) =>
          `<li><a href="${esc(`${this.fieldPath(f)}${c.id}${lang === 'ja' ? '?lang=ja' : ''}`)}">${esc(c.title ?? w.untitled)}</a> <span class="content-id">(${w.id(c.id)})</span></li>`,
      )
      .join('');
    html(
      res,
      200,
      page(
        lang,
        titleOf(f),
        `<h1>${esc(titleOf(f))}</h1>
<h2>${w.contents}</h2>${contents.length > 0 ? `<ul>${items}</ul>` : `<p>${w.none}</p>`}
<form method="get" action="${esc(this.fieldPath(f))}"><p><label for="topic-id">${w.open}</label> <input id="topic-id" name="topic_id" inputmode="numeric" pattern="[0-9]+" required> <button type="submit">${w.openButton}</button></p></form>`,
      ),
    );
  }

  private async editorPage(
    f: JsonField,
    topicId: number,
    lang: Lang,
    valueText: string,
    notes: string[],
    errors: readonly ValidatedError[] = [],
  ): Promise<string> {
    const w = WORDS[lang];
    const title = await jsonContentTitle(this.site, f, topicId, this.titleLangs(lang));
    const heading = `${titleOf(f)}: ${title ?? w.untitled} (${w.id(topicId)})`;
    const shown =
      errors.length > 0
        ? `<div role="alert" class="problems"><p>${w.notSaved}</p><ul>${errors.map((e) => `<li>${esc(e.field || '/')}: ${esc(e.message[lang])}</li>`).join('')}</ul></div>`
        : notes.map((n) => `<p role="status">${esc(n)}</p>`).join('');
    const filesBase = this.base.replace(/\/$/, '');
    return page(
      lang,
      heading,
      `<h1>${esc(heading)}</h1>
<p><a href="${esc(this.fieldPath(f))}">${w.back}</a></p>
${shown}<form method="post" action="${esc(`${this.fieldPath(f)}${topicId}${lang === 'ja' ? '?lang=ja' : ''}`)}">
  <json-field-form name="value" lang="${lang}" time-zone="${esc(this.site.config.timezone)}" files-base="${esc(filesBase)}" schema="${esc(JSON.stringify(f.schema))}"><textarea name="value" rows="12" cols="60">${esc(valueText)}</textarea></json-field-form>
  <p><button type="submit">${w.save}</button></p>
</form>`,
      [`${this.fieldPath(f)}validator.js`],
    );
  }

  private async save(
    req: IncomingMessage,
    res: ServerResponse,
    f: JsonField,
    topicId: number,
    lang: Lang,
  ): Promise<void> {
    let text: string;
    try {
      text = new URLSearchParams(await readBody(req, MAX_VALUE)).get('value') ?? '';
    } catch (e) {
      if (!(e instanceof BodyTooLarge)) throw e;
      res.setHeader('connection', 'close');
      send(res, 413, 'text/plain; charset=utf-8', `the value is larger than ${MAX_VALUE} bytes`);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      html(res, 400, await this.editorPage(f, topicId, lang, text, [WORDS[lang].notJson]));
      return;
    }
    let errors: ValidatedError[];
    try {
      errors = createValidator(f.schema).validate(value);
    } catch (e) {
      if (!(e instanceof FormSchemaError)) throw e;
      send(res, 500, 'text/plain; charset=utf-8', `the field's schema is refused: ${e.localized[lang]}`);
      return;
    }
    if (errors.length > 0) {
      html(res, 422, await this.editorPage(f, topicId, lang, text, [], errors));
      return;
    }
    if (!(await saveJsonValue(this.site, f, topicId, value))) {
      send(res, 404, 'text/plain; charset=utf-8', `content group ${f.groupId} has no content ${topicId}`);
      return;
    }
    res.writeHead(303, {
      location: `${this.fieldPath(f)}${topicId}?saved=1${lang === 'ja' ? '&lang=ja' : ''}`,
      'cache-control': 'no-store',
    });
    res.end();
  }
}

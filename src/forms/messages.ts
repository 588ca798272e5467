/**
 * Our own en/ja message catalogue for the form model: schema lint, value validation, card
 * operations and coercions. Messages are never taken from ajv (its English, and ajv-i18n's
 * Japanese, which gets the bounds of minLength/maxLength wrong).
 *
 * Each entry is a pair of functions of the same parameters, so plurals and word order are
 * written per language. `message(key, params)` renders both.
 */
import type { LocalizedMessage } from './types.js';

export type MessageParams = Record<string, string | number | LocalizedMessage | undefined>;
type Render = (p: MessageParams) => string;
interface Entry {
  en: Render;
  ja: Render;
}

/**
 * A number as the platform shows it (PHP's number_format, and the CMS's own screens in both
 * languages): the integer part in groups of three separated by commas, every fraction digit
 * kept (a limit of 0.125 must not read 0.13). What JavaScript writes with an exponent (1e+21,
 * 1e-7) stays as it is: no separator would make it clearer.
 */
export function formatNumber(n: number): string {
  const s = String(n);
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(s);
  if (!m) return s;
  return m[1]! + m[2]!.replace(/\B(?=(\d{3})+$)/g, ',') + (m[3] ?? '');
}

/**
 * Reads a parameter in one language (a LocalizedMessage parameter is resolved per language).
 * The one place numbers are formatted: a number parameter is a count, a limit or a position
 * that we computed or read from the schema, so it gets separators; a string parameter is text
 * (a value the user typed, a JSON rendering of a schema value) and is shown exactly as given.
 */
function get(p: MessageParams, name: string, lang: 'en' | 'ja'): string {
  const v = p[name];
  if (v === undefined) return '';
  if (typeof v === 'object') return v[lang];
  if (typeof v === 'number') return formatNumber(v);
  return v;
}
const en = (p: MessageParams, n: string) => get(p, n, 'en');
const ja = (p: MessageParams, n: string) => get(p, n, 'ja');
const plural = (n: unknown, one: string, many: string) => (Number(n) === 1 ? one : many);

const LINK_ADVICE_EN =
  'Split it into several JSON fields of at most three levels each and link the records through an ID field repeated in both ' +
  '(for example a parent field holding an array of child objects, and a second field keyed by the child ID holding its own array of objects).';
const LINK_ADVICE_JA =
  '3階層以内の複数のJSON拡張項目に分割し、両方の項目に同じIDフィールドを持たせてレコードを関連付けてください' +
  '（例: 子オブジェクトの配列を持つ親レコードの項目と、子のIDをキーにしてその子自身のオブジェクト配列を持つ2つ目の項目）。';

export const catalogue = {
  // ---- words used as parameters -------------------------------------------------------
  'word.type.string': { en: () => 'a string', ja: () => '文字列' },
  'word.type.integer': { en: () => 'an integer', ja: () => '整数' },
  'word.type.number': { en: () => 'a number', ja: () => '数値' },
  'word.type.boolean': { en: () => 'true or false', ja: () => '真偽値' },
  'word.type.array': { en: () => 'a list', ja: () => '配列' },
  'word.type.object': { en: () => 'an object', ja: () => 'オブジェクト' },
  'word.type.null': { en: () => 'empty (null)', ja: () => '空（null）' },
  'word.expected.string': { en: () => 'a string', ja: () => '文字列' },
  'word.expected.boolean': { en: () => 'true or false', ja: () => 'true または false' },
  'word.expected.number': { en: () => 'a number', ja: () => '数値' },
  'word.expected.non-negative-integer': { en: () => 'an integer of 0 or more', ja: () => '0以上の整数' },
  'word.expected.positive-integer': { en: () => 'an integer of 1 or more', ja: () => '1以上の整数' },
  'word.expected.string-array': { en: () => 'an array of strings', ja: () => '文字列の配列' },
  'word.expected.non-empty-array': { en: () => 'a non-empty array', ja: () => '空でない配列' },
  'word.expected.object': { en: () => 'an object', ja: () => 'オブジェクト' },
  'word.expected.schema': { en: () => 'a schema object', ja: () => 'スキーマのオブジェクト' },
  'word.expected.string-or-number': { en: () => 'a string or a number', ja: () => '文字列または数値' },
  'word.expected.string-or-boolean': { en: () => 'a string or true/false', ja: () => '文字列または true/false' },

  // ---- schema lint ---------------------------------------------------------------------
  'lint.schema-not-object': {
    en: () => 'A schema must be a JSON object.',
    ja: () => 'スキーマはJSONオブジェクトでなければなりません。',
  },
  'lint.unknown-keyword': {
    en: (p) =>
      `Unknown keyword "${en(p, 'keyword')}".` + (p.suggestion ? ` Did you mean "${en(p, 'suggestion')}"?` : ''),
    ja: (p) =>
      `不明なキーワード「${ja(p, 'keyword')}」です。` +
      (p.suggestion ? `「${ja(p, 'suggestion')}」の誤りではありませんか？` : ''),
  },
  'lint.type-missing': {
    en: () => 'The schema has no "type"; the form needs one to choose a control.',
    ja: () => '「type」が指定されていません。フォームの入力部品を決めるために必要です。',
  },
  'lint.type-invalid': {
    en: (p) =>
      `"${en(p, 'type')}" is not a type; use string, integer, number, boolean, array or object (optionally with "null").`,
    ja: (p) =>
      `「${ja(p, 'type')}」は型ではありません。string、integer、number、boolean、array、object のいずれか（null との組み合わせ可）を指定してください。`,
  },
  'lint.type-union': {
    en: (p) =>
      `The union type ${en(p, 'type')} is not supported; use one type, optionally together with "null" (for example ["string", "null"]).`,
    ja: (p) =>
      `型の組み合わせ ${ja(p, 'type')} には対応していません。1つの型、または null との組み合わせ（例: ["string", "null"]）を指定してください。`,
  },
  'lint.keyword-not-applicable': {
    en: (p) => `"${en(p, 'keyword')}" does not apply to type ${en(p, 'type')}.`,
    ja: (p) => `「${ja(p, 'keyword')}」は型 ${ja(p, 'type')} には使えません。`,
  },
  'lint.value-invalid': {
    en: (p) => `The value of "${en(p, 'keyword')}" must be ${en(p, 'expected')}.`,
    ja: (p) => `「${ja(p, 'keyword')}」の値は${ja(p, 'expected')}でなければなりません。`,
  },
  'lint.enumnames-without-enum': {
    en: () => '"enumNames" needs an "enum" beside it.',
    ja: () => '「enumNames」には「enum」が必要です。',
  },
  'lint.enumnames-length': {
    en: (p) =>
      `"enumNames" has ${en(p, 'names')} ${plural(p.names, 'label', 'labels')} but "enum" has ${en(p, 'values')} ${plural(p.values, 'value', 'values')}; they must be parallel.`,
    ja: (p) =>
      `「enumNames」の表示名は${ja(p, 'names')}個ですが「enum」の値は${ja(p, 'values')}個です。同じ数にしてください。`,
  },
  'lint.enum-duplicate': {
    en: (p) => `"enum" lists ${en(p, 'value')} more than once.`,
    ja: (p) => `「enum」に ${ja(p, 'value')} が重複しています。`,
  },
  'lint.default-not-in-enum': {
    en: (p) => `The default ${en(p, 'value')} is not one of the "enum" values.`,
    ja: (p) => `初期値 ${ja(p, 'value')} が「enum」の値に含まれていません。`,
  },
  'lint.enum-null-type': {
    en: () =>
      '"enum" contains null but "type" does not allow null: null is the initial value and will not validate, so the editor must choose a value.',
    ja: () =>
      '「enum」に null がありますが「type」は null を許可していません。初期値は null になり検証に通らないため、値の選択が必須になります。',
  },
  'lint.nullable-contradicts-type': {
    en: () => '"nullable": false contradicts a "type" that includes "null".',
    ja: () => '「nullable」: false と、null を含む「type」が矛盾しています。',
  },
  'lint.nullable-no-effect': {
    en: () =>
      '"nullable" only marks enum, date, date-time, number and integer fields; for other fields it has no effect (for text use "minLength": 1).',
    ja: () =>
      '「nullable」が必須マークを表示するのは enum・date・date-time・number・integer の項目だけです。この項目では効果がありません（テキストには「minLength」: 1 を使用してください）。',
  },
  'lint.format-unknown': {
    en: (p) => `Unknown format "${en(p, 'format')}"; use date, date-time, file-manager, html or textarea.`,
    ja: (p) =>
      `不明なフォーマット「${ja(p, 'format')}」です。date、date-time、file-manager、html、textarea のいずれかを指定してください。`,
  },
  'lint.rows-without-textarea': {
    en: () => '"rows" only has an effect with "format": "textarea".',
    ja: () => '「rows」は「format」: "textarea" のときだけ有効です。',
  },
  'lint.format-options-without-html': {
    en: () => '"format_options" only has an effect with "format": "html".',
    ja: () => '「format_options」は「format」: "html" のときだけ有効です。',
  },
  'lint.format-options-unknown-key': {
    en: (p) =>
      `Unknown "format_options" key "${en(p, 'key')}".` +
      (p.suggestion ? ` Did you mean "${en(p, 'suggestion')}"?` : ''),
    ja: (p) =>
      `「format_options」に不明なキー「${ja(p, 'key')}」があります。` +
      (p.suggestion ? `「${ja(p, 'suggestion')}」の誤りではありませんか？` : ''),
  },
  'lint.minute-interval-invalid': {
    en: (p) => `"minuteInterval" is ${en(p, 'value')}; use one of 1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30.`,
    ja: (p) =>
      `「minuteInterval」が ${ja(p, 'value')} です。1、2、3、4、5、6、10、12、15、20、30 のいずれかを指定してください。`,
  },
  'lint.minute-interval-without-datetime': {
    en: () => '"minuteInterval" only has an effect with "format": "date-time".',
    ja: () => '「minuteInterval」は「format」: "date-time" のときだけ有効です。',
  },
  'lint.min-greater-than-max': {
    en: (p) =>
      `"${en(p, 'min')}" (${en(p, 'minValue')}) is greater than "${en(p, 'max')}" (${en(p, 'maxValue')}); no value can be valid.`,
    ja: (p) =>
      `「${ja(p, 'min')}」(${ja(p, 'minValue')}) が「${ja(p, 'max')}」(${ja(p, 'maxValue')}) より大きいため、どの値も検証に通りません。`,
  },
  'lint.pattern-invalid': {
    en: (p) => `The pattern ${en(p, 'pattern')} is not a valid regular expression (with the "u" flag).`,
    ja: (p) => `パターン ${ja(p, 'pattern')} は正規表現（u フラグ付き）として正しくありません。`,
  },
  'lint.required-unknown': {
    en: (p) => `"required" lists "${en(p, 'name')}", which is not in "properties".`,
    ja: (p) => `「required」の「${ja(p, 'name')}」が「properties」にありません。`,
  },
  'lint.items-missing': {
    en: () => 'The array has no "items" schema; it is edited as JSON text.',
    ja: () => '配列に「items」がないため、JSONテキストとして編集します。',
  },
  'lint.depth-exceeded': {
    en: (p) =>
      `This schema nests ${en(p, 'depth')} levels deep; the form UI can edit at most ${en(p, 'limit')} levels (object > array > object). ${LINK_ADVICE_EN} The value can still be edited in the JSON editor.`,
    ja: (p) =>
      `このスキーマは${ja(p, 'depth')}階層の入れ子になっています。フォームUIで編集できるのは${ja(p, 'limit')}階層（object > array > object）までです。${LINK_ADVICE_JA}値はJSONエディタでは引き続き編集できます。`,
  },
  'lint.root-not-object': {
    en: () =>
      'The form UI needs a root schema of type "object" (its properties become the fields) or an array of objects (cards). The value can still be edited in the JSON editor.',
    ja: () =>
      'フォームUIを生成するには、ルートのスキーマが「type」: "object"（その properties が各項目になります）またはオブジェクトの配列（カード）である必要があります。値はJSONエディタでは引き続き編集できます。',
  },

  // ---- schema refused ------------------------------------------------------------------
  'schema.invalid': {
    en: (p) => `The JSON schema has ${en(p, 'count')} ${plural(p.count, 'error', 'errors')}: ${en(p, 'first')}`,
    ja: (p) => `JSONスキーマに${ja(p, 'count')}件のエラーがあります: ${ja(p, 'first')}`,
  },
  'schema.compile': {
    en: (p) => `The JSON schema could not be compiled: ${en(p, 'detail')}`,
    ja: (p) => `JSONスキーマをコンパイルできませんでした: ${ja(p, 'detail')}`,
  },
  'form.refused': {
    en: (p) => `The form UI cannot be built from this schema: ${en(p, 'first')}`,
    ja: (p) => `このスキーマからフォームUIを生成できません: ${ja(p, 'first')}`,
  },

  // ---- value validation ------------------------------------------------------------------
  'validate.required': { en: () => 'This field is required.', ja: () => 'この項目は必須です。' },
  'validate.type': {
    en: (p) => `Must be ${en(p, 'type')}.`,
    ja: (p) => `${ja(p, 'type')}で入力してください。`,
  },
  'validate.minLength': {
    en: (p) => `Enter at least ${en(p, 'limit')} ${plural(p.limit, 'character', 'characters')}.`,
    ja: (p) => `${ja(p, 'limit')}文字以上で入力してください。`,
  },
  'validate.maxLength': {
    en: (p) => `Enter at most ${en(p, 'limit')} ${plural(p.limit, 'character', 'characters')}.`,
    ja: (p) => `${ja(p, 'limit')}文字以内で入力してください。`,
  },
  'validate.minimum': {
    en: (p) => `Must be ${en(p, 'limit')} or more.`,
    ja: (p) => `${ja(p, 'limit')}以上の値を入力してください。`,
  },
  'validate.maximum': {
    en: (p) => `Must be ${en(p, 'limit')} or less.`,
    ja: (p) => `${ja(p, 'limit')}以下の値を入力してください。`,
  },
  'validate.minItems': {
    en: (p) => `Enter at least ${en(p, 'limit')} ${plural(p.limit, 'item', 'items')}.`,
    ja: (p) => `${ja(p, 'limit')}件以上入力してください。`,
  },
  'validate.maxItems': {
    en: (p) => `Enter at most ${en(p, 'limit')} ${plural(p.limit, 'item', 'items')}.`,
    ja: (p) => `${ja(p, 'limit')}件以内にしてください。`,
  },
  'validate.uniqueItems': {
    en: (p) => `Items ${en(p, 'first')} and ${en(p, 'second')} are the same; each item may appear only once.`,
    ja: (p) => `${ja(p, 'first')}件目と${ja(p, 'second')}件目が重複しています。同じ値は1回しか入力できません。`,
  },
  'validate.pattern': {
    en: (p) => `Does not match the required pattern ${en(p, 'pattern')}.`,
    ja: (p) => `入力形式が正しくありません（パターン ${ja(p, 'pattern')}）。`,
  },
  'validate.enum': {
    en: (p) => `Choose one of: ${en(p, 'allowed')}.`,
    ja: (p) => `次のいずれかを選択してください: ${ja(p, 'allowed')}`,
  },
  'validate.format.date': {
    en: () => 'Enter a valid date (YYYY-MM-DD).',
    ja: () => '正しい日付（YYYY-MM-DD）を入力してください。',
  },
  'validate.format.date-time': {
    en: () => 'Enter a valid date and time with seconds and a time zone (YYYY-MM-DDTHH:mm:ss+09:00).',
    ja: () => '秒とタイムゾーンを含む正しい日時（YYYY-MM-DDTHH:mm:ss+09:00）を入力してください。',
  },
  'validate.format.file-manager': {
    en: () => 'Enter a file path starting with "/" (no line breaks).',
    ja: () => '「/」で始まるファイルパスを入力してください（改行は使えません）。',
  },
  'validate.format': {
    en: (p) => `Must be in the format "${en(p, 'format')}".`,
    ja: (p) => `「${ja(p, 'format')}」の形式で入力してください。`,
  },
  'validate.additionalProperties': {
    en: (p) => `The property "${en(p, 'property')}" is not defined in the schema.`,
    ja: (p) => `プロパティ「${ja(p, 'property')}」はスキーマに定義されていません。`,
  },
  'validate.invalid': { en: () => 'The value is invalid.', ja: () => '値が正しくありません。' },

  // ---- cards -----------------------------------------------------------------------------
  'card.max-items': {
    en: (p) => `At most ${en(p, 'limit')} ${plural(p.limit, 'item is', 'items are')} allowed; the item was not added.`,
    ja: (p) => `最大${ja(p, 'limit')}件までです。追加できません。`,
  },
  'card.min-items': {
    en: (p) =>
      `At least ${en(p, 'limit')} ${plural(p.limit, 'item is', 'items are')} required; the item was not deleted.`,
    ja: (p) => `最低${ja(p, 'limit')}件必要です。削除できません。`,
  },

  // ---- coercions -------------------------------------------------------------------------
  'coerce.not-a-number': {
    en: (p) => `"${en(p, 'text')}" is not a number.`,
    ja: (p) => `「${ja(p, 'text')}」は数値ではありません。`,
  },
  'coerce.invalid-json': {
    en: (p) =>
      `Invalid JSON${p.line ? ` at line ${en(p, 'line')}, column ${en(p, 'column')}` : ''}; the previous value is kept.`,
    ja: (p) =>
      `JSONの形式が正しくありません${p.line ? `（${ja(p, 'line')}行目 ${ja(p, 'column')}文字目付近）` : ''}。以前の値のままです。`,
  },
  'coerce.json-not-object': {
    en: () => 'The JSON text must be an object ({ ... }); the previous value is kept.',
    ja: () => 'JSONはオブジェクト（{ ... }）でなければなりません。以前の値のままです。',
  },
  'coerce.json-not-array': {
    en: () => 'The JSON text must be an array ([ ... ]); the previous value is kept.',
    ja: () => 'JSONは配列（[ ... ]）でなければなりません。以前の値のままです。',
  },
  'coerce.invalid-date': {
    en: (p) => `"${en(p, 'text')}" is not a date (YYYY-MM-DD).`,
    ja: (p) => `「${ja(p, 'text')}」は日付（YYYY-MM-DD）ではありません。`,
  },
  'coerce.invalid-datetime': {
    en: (p) => `"${en(p, 'text')}" is not a date and time (YYYY-MM-DDTHH:mm or YYYY-MM-DDTHH:mm:ss).`,
    ja: (p) => `「${ja(p, 'text')}」は日時（YYYY-MM-DDTHH:mm または YYYY-MM-DDTHH:mm:ss）ではありません。`,
  },
  'coerce.invalid-slash-date': {
    en: (p) => `"${en(p, 'text')}" is not a date (YYYY/MM/DD).`,
    ja: (p) => `「${ja(p, 'text')}」は日付（YYYY/MM/DD）ではありません。`,
  },
  'coerce.invalid-slash-datetime': {
    en: (p) => `"${en(p, 'text')}" is not a date and time (YYYY/MM/DD HH:mm:ss).`,
    ja: (p) => `「${ja(p, 'text')}」は日時（YYYY/MM/DD HH:mm:ss）ではありません。`,
  },
} satisfies Record<string, Entry>;

export type MessageKey = keyof typeof catalogue;

/** Renders a catalogue entry in both languages. */
export function message(key: MessageKey, params: MessageParams = {}): LocalizedMessage {
  const entry: Entry = catalogue[key];
  return { en: entry.en(params), ja: entry.ja(params) };
}

/** The localized name of a JSON type, for use as a message parameter. */
export function typeWord(type: string): LocalizedMessage {
  const key = `word.type.${type}` as MessageKey;
  return key in catalogue ? message(key) : { en: type, ja: type };
}

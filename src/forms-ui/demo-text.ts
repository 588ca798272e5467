/**
 * Words of the `smartcage serve` pages themselves (headings, links, the option, buttons, the
 * paste box) in English and Japanese: the server writes the pages with them, and the demo
 * wiring (./demo.ts) its status line. The form's own words are ./ui-text.ts.
 */
import type { Lang } from './ui-text.js';

export interface DemoText {
  siteTitle: string;
  samplesHeading: string;
  yourSchemas: string;
  refusedOnPurpose: string;
  allSamples: string;
  otherLanguage: string;
  buildUi: string;
  save: string;
  submitted: string;
  serverValid: string;
  serverSays(json: string): string;
  pasteLink: string;
  pasteHeading: string;
  pasteIntro: string;
  pasteLabel: string;
  pasteButton: string;
  pasteRefused: string;
  pasteNotJson(reason: string): string;
  pasteTooLarge(maxKiB: number): string;
  pastedTitle: string;
}

const en: DemoText = {
  siteTitle: 'smartcage forms',
  samplesHeading: 'JSON-schema form samples',
  yourSchemas: 'Your schemas',
  refusedOnPurpose: 'refused by the form UI on purpose',
  allSamples: 'All samples',
  otherLanguage: '日本語',
  buildUi: 'Build UI from JSON schema',
  save: 'Save',
  submitted: 'Submitted JSON',
  serverValid: 'server: valid',
  serverSays: (json) => `server: ${json}`,
  pasteLink: 'Paste a schema',
  pasteHeading: 'Paste a JSON schema',
  pasteIntro: 'The server checks the schema, compiles its validator and shows the form for it.',
  pasteLabel: 'JSON schema',
  pasteButton: 'Show the form',
  pasteRefused: 'The schema was refused:',
  pasteNotJson: (reason) => `The text is not JSON: ${reason}`,
  pasteTooLarge: (maxKiB) => `The schema is larger than ${maxKiB} KiB.`,
  pastedTitle: 'Pasted schema',
};

const ja: DemoText = {
  siteTitle: 'smartcage フォーム',
  samplesHeading: 'JSONスキーマ フォームのサンプル',
  yourSchemas: '指定されたスキーマ',
  refusedOnPurpose: 'フォームUIが意図的に拒否するサンプル',
  allSamples: 'サンプル一覧',
  otherLanguage: 'English',
  buildUi: 'JSONスキーマからUIを生成する',
  save: '保存',
  submitted: '送信されたJSON',
  serverValid: 'サーバー: 有効',
  serverSays: (json) => `サーバー: ${json}`,
  pasteLink: 'スキーマを貼り付ける',
  pasteHeading: 'JSONスキーマを貼り付ける',
  pasteIntro: 'サーバーがスキーマを検査し、検証コードをコンパイルして、そのフォームを表示します。',
  pasteLabel: 'JSONスキーマ',
  pasteButton: 'フォームを表示',
  pasteRefused: 'スキーマが拒否されました:',
  pasteNotJson: (reason) => `JSONではありません: ${reason}`,
  pasteTooLarge: (maxKiB) => `スキーマが ${maxKiB} KiB を超えています。`,
  pastedTitle: '貼り付けたスキーマ',
};

export function demoText(lang: Lang): DemoText {
  return lang === 'ja' ? ja : en;
}

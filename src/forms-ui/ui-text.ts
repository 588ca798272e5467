/**
 * Words of the form UI itself (buttons, marks, dialogs) in English and Japanese. Validation,
 * card-refusal and coercion messages come from src/forms/messages.ts.
 */
export type Lang = 'en' | 'ja';

export interface UiText {
  required: string;
  item(n: number): string;
  moveUp(n: number): string;
  moveDown(n: number): string;
  remove(n: number): string;
  addAfter(n: number): string;
  addFirst: string;
  up: string;
  down: string;
  del: string;
  add: string;
  moved(n: number): string;
  preview: string;
  previewTitle: string;
  close: string;
  json: string;
  pickFile: string;
  choose: string;
  clear: string;
  openPreview: string;
  cancel: string;
  loading: string;
  emptyFolder: string;
  openFolder(name: string): string;
  chooseFile(name: string): string;
  loadFailed(why: string): string;
  formRefused: string;
  errorsSummary(n: number): string;
  noFile: string;
  noValidator: string;
}

const en: UiText = {
  required: 'required',
  item: (n) => `Item ${n}`,
  moveUp: (n) => `Move item ${n} up`,
  moveDown: (n) => `Move item ${n} down`,
  remove: (n) => `Delete item ${n}`,
  addAfter: (n) => `Add an item after item ${n}`,
  addFirst: 'Add an item',
  up: 'Up',
  down: 'Down',
  del: 'Delete',
  add: 'Add',
  moved: (n) => `Moved to position ${n}.`,
  preview: 'JSON Preview',
  previewTitle: 'JSON Preview (read-only)',
  close: 'Close',
  json: 'JSON',
  pickFile: 'Choose a file',
  choose: 'Choose file',
  clear: 'Clear',
  openPreview: 'Preview',
  cancel: 'Cancel',
  loading: 'Loading…',
  emptyFolder: 'This folder is empty.',
  openFolder: (name) => `Open folder ${name}`,
  chooseFile: (name) => `Choose ${name}`,
  loadFailed: (why) => `Could not list the files: ${why}`,
  formRefused: 'The form cannot be built from this schema; edit the value as JSON.',
  errorsSummary: (n) => (n === 1 ? '1 field needs attention.' : `${n} fields need attention.`),
  noFile: 'No file chosen',
  noValidator: "This page's security policy does not allow checking the value here; it is checked when saved.",
};

const ja: UiText = {
  required: '必須',
  item: (n) => `項目${n}`,
  moveUp: (n) => `項目${n}を上へ移動`,
  moveDown: (n) => `項目${n}を下へ移動`,
  remove: (n) => `項目${n}を削除`,
  addAfter: (n) => `項目${n}の後に追加`,
  addFirst: '項目を追加',
  up: '上へ',
  down: '下へ',
  del: '削除',
  add: '追加',
  moved: (n) => `${n}番目に移動しました。`,
  preview: 'JSONプレビュー',
  previewTitle: 'JSONプレビュー（読み取り専用）',
  close: '閉じる',
  json: 'JSON',
  pickFile: 'ファイルを選択',
  choose: 'ファイルを選択',
  clear: 'クリア',
  openPreview: 'プレビュー',
  cancel: 'キャンセル',
  loading: '読み込み中…',
  emptyFolder: 'このフォルダは空です。',
  openFolder: (name) => `フォルダ ${name} を開く`,
  chooseFile: (name) => `${name} を選択`,
  loadFailed: (why) => `ファイル一覧を取得できませんでした: ${why}`,
  formRefused: 'このスキーマからはフォームを作成できません。JSONとして編集してください。',
  errorsSummary: (n) => `${n}件の項目を確認してください。`,
  noFile: 'ファイル未選択',
  noValidator: 'このページのセキュリティポリシーにより、ここでは入力値を検証できません。保存時に検証されます。',
};

export function uiText(lang: Lang): UiText {
  return lang === 'ja' ? ja : en;
}

/** The UI language of a language tag (`lang` attribute, `?lang=`): Japanese for ja*, else English. */
export function langOf(tag: string | null | undefined): Lang {
  return tag?.toLowerCase().startsWith('ja') ? 'ja' : 'en';
}

/**
 * The words of `serve`'s own index pages (a site's index, the list of sites) in English and
 * Japanese: `?lang=ja` gives the Japanese page, and every link on it keeps the language.
 */
import type { Lang } from '../../forms-ui/ui-text.js';

export const INDEX_TEXT = {
  en: {
    endpoints: 'API endpoints',
    fields: 'JSON fields',
    none: 'None.',
    group: (id: number) => `content group ${id}`,
    preview: 'Preview of templates/',
    playground: 'Playground',
    forms: 'Form samples and the paste box',
    sites: 'Sites',
    also: 'also',
    otherLanguage: '日本語',
  },
  ja: {
    endpoints: 'APIエンドポイント',
    fields: 'JSON拡張項目',
    none: 'ありません。',
    group: (id: number) => `コンテンツ定義 ${id}`,
    preview: 'templates/ のプレビュー',
    playground: 'プレイグラウンド',
    forms: 'フォームの見本と貼り付け欄',
    sites: 'サイト',
    also: '別名',
    otherLanguage: 'English',
  },
} as const satisfies Record<Lang, unknown>;

/** `?lang=ja` on a Japanese page, nothing on an English one: for the links the page makes. */
export const langSuffix = (lang: Lang): string => (lang === 'ja' ? '?lang=ja' : '');

/** The link to the same page in the other language (a query relative to the page). */
export const otherLanguageLink = (lang: Lang): string =>
  `<a href="?lang=${lang === 'ja' ? 'en' : 'ja'}" lang="${lang === 'ja' ? 'en' : 'ja'}">${INDEX_TEXT[lang].otherLanguage}</a>`;

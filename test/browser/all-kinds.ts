/** A form with every control kind of the spec's detection table (browser tests). */
export const ALL_KINDS = {
  type: 'object',
  title: 'Every control',
  required: ['tags', 'meta'],
  properties: {
    title: { type: 'string', title: 'Title', description: 'Shown as the heading.', minLength: 1 },
    color: { type: 'string', title: 'Color', enum: ['r', 'g'], enumNames: ['Red', 'Green'] },
    day: { type: 'string', title: 'Day', format: 'date', nullable: false },
    at: { type: 'string', title: 'At', format: 'date-time' },
    file: { type: 'string', title: 'File', format: 'file-manager' },
    body: { type: 'string', title: 'Body', format: 'html', format_options: { height: '120px' } },
    note: { type: 'string', title: 'Note', format: 'textarea', rows: 5 },
    count: { type: 'integer', title: 'Count', minimum: 0 },
    level: { type: 'integer', title: 'Level', enum: [1, 2, 3], enumNames: ['Low', 'Mid', 'High'] },
    ok: { type: 'boolean', title: 'OK' },
    tags: { type: 'array', title: 'Tags', items: { type: 'string' } },
    sizes: {
      type: 'array',
      title: 'Sizes',
      items: { type: 'string', enum: ['s', 'm', 'l'], enumNames: ['Small', 'Medium', 'Large'] },
    },
    rows: {
      type: 'array',
      title: 'Rows',
      items: { type: 'object', title: 'Row', properties: { name: { type: 'string', title: 'Name' } } },
    },
    meta: { type: 'object', title: 'Meta' },
  },
};

const JA_WORDS: Record<string, string> = {
  'Every control': 'すべての入力部品',
  Title: 'タイトル',
  'Shown as the heading.': '見出しとして表示されます。',
  Color: '色',
  Red: '赤',
  Green: '緑',
  Day: '開催日',
  At: '公開日時',
  File: '添付ファイル',
  Body: '本文',
  Note: 'メモ',
  Count: '定員',
  Level: '優先度',
  Low: '低',
  Mid: '中',
  High: '高',
  OK: 'トップページに掲載する',
  Tags: 'タグ',
  Sizes: 'サイズ',
  Small: '小',
  Medium: '中',
  Large: '大',
  Rows: '出演者',
  Row: '出演者',
  Name: '氏名',
  Meta: 'メタ情報',
};

/** ALL_KINDS as a Japanese author writes it: the same schema with its titles, help and option names in Japanese. */
export const ALL_KINDS_JA = (function ja(v: unknown): unknown {
  if (typeof v === 'string') return JA_WORDS[v] ?? v;
  if (Array.isArray(v)) return v.map(ja);
  if (v === null || typeof v !== 'object') return v;
  // Only titles, help and option names are in JA_WORDS: type names, formats and enum values are not.
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, ja(x)]));
})(ALL_KINDS);

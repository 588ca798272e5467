/**
 * The JSON-type extended columns of a site as the form editor of `smartcage serve` reads and
 * writes them. A column is an ordinary extended column of its content group (topics_ext_columns,
 * type `json`) with its JSON schema beside it (ext_json_schemas); a value is the content's
 * extended value (topic_ext_values, index 0, the JSON text), so what the editor saves is what
 * `{assign_topics_detail}`, `{assign_topics_list}` and the API answer (D141). Checking a value
 * against its schema is the caller's (the forms validator lives above the site's layer); this
 * module stores what it is given.
 */
import type { SiteContext } from './site-context.js';

export interface JsonField {
  groupId: number;
  slug: string;
  schema: unknown;
}

interface FieldRow {
  group_id: number;
  slug: string;
  schema: string;
}

const field = (r: FieldRow): JsonField => ({
  groupId: Number(r.group_id),
  slug: r.slug,
  schema: JSON.parse(r.schema) as unknown,
});

/** A schema names a field only when its group has a JSON column of that slug. */
const FIELDS = `SELECT s.group_id, s.slug, s.schema FROM ext_json_schemas s
  JOIN topics_ext_columns c ON c.tenant = s.tenant AND c.group_id = s.group_id AND c.slug = s.slug AND c.type = 'json'
  WHERE s.tenant = ?`;

export async function jsonFields(ctx: SiteContext): Promise<JsonField[]> {
  return (await ctx.db.all<FieldRow>(`${FIELDS} ORDER BY s.group_id, s.slug`, [ctx.tenant])).map(field);
}

export async function jsonField(ctx: SiteContext, groupId: number, slug: string): Promise<JsonField | null> {
  const row = await ctx.db.get<FieldRow>(`${FIELDS} AND s.group_id = ? AND s.slug = ?`, [ctx.tenant, groupId, slug]);
  return row ? field(row) : null;
}

/** The values of one field: its column's rows, each of a content of the field's group. */
const VALUE_ROWS = `FROM topic_ext_values v
  JOIN topics_ext_columns c ON c.tenant = v.tenant AND c.id = v.column_id`;
const OF_FIELD = 'WHERE v.tenant = ? AND c.group_id = ? AND c.slug = ? AND v.idx = 0 AND v.value IS NOT NULL';
const VALUES = `${VALUE_ROWS} ${OF_FIELD}`;

/** A content that holds a value of a field: its id and its title (null: it has no text). */
export interface JsonValueContent {
  id: number;
  title: string | null;
}

/**
 * The contents that hold a value of the field, by id, each with its title (`subject`) in the
 * first of `langs` it has, else in any language it has.
 */
export async function jsonValueContents(
  ctx: SiteContext,
  f: JsonField,
  langs: readonly string[],
): Promise<JsonValueContent[]> {
  const rows = await ctx.db.all<{ topic_id: number; lang: string | null; subject: string | null }>(
    `SELECT v.topic_id, x.lang, x.subject ${VALUE_ROWS}
     LEFT JOIN topic_texts x ON x.tenant = v.tenant AND x.topic_id = v.topic_id
     ${OF_FIELD} ORDER BY v.topic_id, x.lang`,
    [ctx.tenant, f.groupId, f.slug],
  );
  const texts = new Map<number, Map<string, string>>();
  for (const r of rows) {
    const byLang = texts.get(Number(r.topic_id)) ?? new Map<string, string>();
    texts.set(Number(r.topic_id), byLang);
    if (r.lang !== null && r.subject !== null) byLang.set(r.lang, r.subject);
  }
  return [...texts].map(([id, byLang]) => ({ id, title: titleIn(byLang, langs) }));
}

/** The title of content `topicId` of the field's group (null: no such content, or no text), as jsonValueContents picks it. */
export async function jsonContentTitle(
  ctx: SiteContext,
  f: JsonField,
  topicId: number,
  langs: readonly string[],
): Promise<string | null> {
  const rows = await ctx.db.all<{ lang: string; subject: string }>(
    `SELECT x.lang, x.subject FROM topic_texts x JOIN topics t ON t.tenant = x.tenant AND t.id = x.topic_id
     WHERE x.tenant = ? AND x.topic_id = ? AND t.group_id = ? ORDER BY x.lang`,
    [ctx.tenant, topicId, f.groupId],
  );
  return titleIn(new Map(rows.map((r) => [r.lang, r.subject])), langs);
}

function titleIn(byLang: ReadonlyMap<string, string>, langs: readonly string[]): string | null {
  for (const l of langs) {
    const t = byLang.get(l);
    if (t !== undefined) return t;
  }
  return byLang.values().next().value ?? null;
}

/** The stored value (undefined: none yet). */
export async function jsonValue(ctx: SiteContext, f: JsonField, topicId: number): Promise<unknown> {
  const row = await ctx.db.get<{ value: string }>(`SELECT v.value ${VALUES} AND v.topic_id = ?`, [
    ctx.tenant,
    f.groupId,
    f.slug,
    topicId,
  ]);
  return row ? (JSON.parse(row.value) as unknown) : undefined;
}

/**
 * Stores the value as the content's extended value and marks the content updated. False, and
 * nothing stored, when the field's group has no content `topicId`.
 */
export async function saveJsonValue(ctx: SiteContext, f: JsonField, topicId: number, value: unknown): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const target = await tx.get<{ column_id: number }>(
      `SELECT c.id AS column_id FROM topics t JOIN topics_ext_columns c ON c.tenant = t.tenant AND c.group_id = t.group_id AND c.slug = ? AND c.type = 'json'
       WHERE t.tenant = ? AND t.id = ? AND t.group_id = ?`,
      [f.slug, ctx.tenant, topicId, f.groupId],
    );
    if (!target) return false;
    await tx.run(
      `INSERT INTO topic_ext_values (tenant, topic_id, column_id, idx, value) VALUES (?, ?, ?, 0, ?)
       ON CONFLICT (tenant, topic_id, column_id, idx) DO UPDATE SET value = excluded.value`,
      [ctx.tenant, topicId, target.column_id, JSON.stringify(value)],
    );
    await tx.run('UPDATE topics SET update_at = ? WHERE tenant = ? AND id = ?', [
      Math.floor(Date.now() / 1000),
      ctx.tenant,
      topicId,
    ]);
    return true;
  });
}

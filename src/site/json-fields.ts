/**
 * The JSON-type extended columns of a site (schema/json-fields.ts) as the form editor of
 * `smartcage serve` reads and writes them. Checking a value against its schema is the caller's
 * (the forms validator lives above the site's layer); this module stores what it is given.
 * The one place that knows where the values live, so it can be pointed at the content family's
 * extended values.
 */
import type { SiteContext } from './site-context.js';

export interface JsonField {
  groupId: number;
  slug: string;
  schema: unknown;
}

const field = (r: { group_id: number; slug: string; schema: string }): JsonField => ({ groupId: Number(r.group_id), slug: r.slug, schema: JSON.parse(r.schema) as unknown });

export async function jsonFields(ctx: SiteContext): Promise<JsonField[]> {
  const rows = await ctx.db.all<{ group_id: number; slug: string; schema: string }>('SELECT group_id, slug, schema FROM ext_json_schemas WHERE tenant = ? ORDER BY group_id, slug', [ctx.tenant]);
  return rows.map(field);
}

export async function jsonField(ctx: SiteContext, groupId: number, slug: string): Promise<JsonField | null> {
  const row = await ctx.db.get<{ group_id: number; slug: string; schema: string }>('SELECT group_id, slug, schema FROM ext_json_schemas WHERE tenant = ? AND group_id = ? AND slug = ?', [ctx.tenant, groupId, slug]);
  return row ? field(row) : null;
}

/** The contents that hold a value of the field, by id. */
export async function jsonValueIds(ctx: SiteContext, f: JsonField): Promise<number[]> {
  const rows = await ctx.db.all<{ topic_id: number }>('SELECT topic_id FROM ext_json_values WHERE tenant = ? AND group_id = ? AND slug = ? ORDER BY topic_id', [ctx.tenant, f.groupId, f.slug]);
  return rows.map((r) => Number(r.topic_id));
}

/** The stored value (undefined: none yet). */
export async function jsonValue(ctx: SiteContext, f: JsonField, topicId: number): Promise<unknown> {
  const row = await ctx.db.get<{ value: string }>('SELECT value FROM ext_json_values WHERE tenant = ? AND group_id = ? AND slug = ? AND topic_id = ?', [ctx.tenant, f.groupId, f.slug, topicId]);
  return row ? (JSON.parse(row.value) as unknown) : undefined;
}

export async function saveJsonValue(ctx: SiteContext, f: JsonField, topicId: number, value: unknown): Promise<void> {
  await ctx.db.run(
    `INSERT INTO ext_json_values (tenant, group_id, slug, topic_id, value, updated) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (tenant, group_id, slug, topic_id) DO UPDATE SET value = excluded.value, updated = excluded.updated`,
    [ctx.tenant, f.groupId, f.slug, topicId, JSON.stringify(value), Math.floor(Date.now() / 1000)],
  );
}

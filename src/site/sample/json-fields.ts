/**
 * A JSON-type extended column of content group 1, `venue` (where an event of the news takes
 * place: name, capacity, a floor map from /files/user/), with a value for content 1.
 */
import type { SiteContext } from '../site-context.js';

export const VENUE_SCHEMA = {
  type: 'object',
  title: 'Venue',
  required: ['name'],
  properties: {
    name: { type: 'string', title: 'Name', minLength: 1, maxLength: 100 },
    capacity: { type: ['integer', 'null'], title: 'Capacity', minimum: 1, maximum: 100000 },
    floorMap: { type: 'string', title: 'Floor map', format: 'file-manager' },
    online: { type: 'boolean', title: 'Also online', default: false },
  },
};

export async function jsonFieldsSample(ctx: SiteContext): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await tx.run('INSERT INTO ext_json_schemas (tenant, group_id, slug, schema) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING', [ctx.tenant, 1, 'venue', JSON.stringify(VENUE_SCHEMA)]);
    await tx.run('INSERT INTO ext_json_values (tenant, group_id, slug, topic_id, value, updated) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING', [
      ctx.tenant, 1, 'venue', 1, JSON.stringify({ name: 'Shibuya Hall', capacity: 120, floorMap: '', online: true }), 1698796800,
    ]);
  });
}

/**
 * A JSON-type extended column of content group 1, `venue` (where an event of the news takes
 * place: name, capacity, a floor map from /files/user/): extended column 6 of type `json`, with
 * its schema, and a value for content 1.
 */
import type { SiteContext } from '../site-context.js';

const VENUE_SCHEMA = {
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
    await tx.run(
      'INSERT INTO ext_json_schemas (tenant, group_id, slug, schema) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      [ctx.tenant, 1, 'venue', JSON.stringify(VENUE_SCHEMA)],
    );
    await tx.run(
      'INSERT INTO topics_ext_columns (tenant, id, group_id, slug, type, repeat_cnt, order_no) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      [ctx.tenant, 6, 1, 'venue', 'json', 1, 6],
    );
    await tx.run(
      'INSERT INTO topic_ext_values (tenant, topic_id, column_id, idx, value) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      [ctx.tenant, 1, 6, 0, JSON.stringify({ name: 'Shibuya Hall', capacity: 120, floorMap: '', online: true })],
    );
  });
}

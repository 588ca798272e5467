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

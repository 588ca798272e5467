/**
 * Which statements get a name, kept prepared on PostgreSQL's connections (D368): only texts marked
 * prepared, one name per text, at most MAX_PREPARED_TEXTS for the process (a file of its own: it
 * uses them up).
 */
import { describe, expect, it } from 'vitest';
import { MAX_PREPARED_TEXTS, pgStatement } from '../../../src/site/db/postgres.js';

describe('named statements', () => {
  it('are only the texts marked prepared, one name per text, at most MAX_PREPARED_TEXTS', () => {
    expect(pgStatement('SELECT $1', [1], undefined)).toEqual({ text: 'SELECT $1', values: [1] });
    expect(pgStatement('SELECT $1', [1], { prepared: false })).not.toHaveProperty('name');
    const first = pgStatement('SELECT 0 AS n', [], { prepared: true });
    expect(first.name).toMatch(/^smartcage_[0-9a-f]{32}$/);
    expect(pgStatement('SELECT 0 AS n', [], { prepared: true }).name).toBe(first.name);
    const names = new Set([first.name]);
    for (let i = 1; i < MAX_PREPARED_TEXTS; i++)
      names.add(pgStatement(`SELECT ${i} AS n`, [], { prepared: true }).name);
    expect(names.size).toBe(MAX_PREPARED_TEXTS);
    // Past the bound a new text runs unnamed; those named keep their names.
    expect(pgStatement('SELECT -1 AS n', [], { prepared: true })).not.toHaveProperty('name');
    expect(pgStatement('SELECT 0 AS n', [], { prepared: true }).name).toBe(first.name);
  });
});

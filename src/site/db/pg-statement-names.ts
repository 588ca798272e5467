/**
 * Which PostgreSQL statements run named, prepared once per pooled connection (D368). One per pool
 * (openPostgres): its bound is what each of that pool's connections holds, and a pool whose names
 * were lost (a pooler in transaction mode, say) stops naming without stopping another database's.
 */
import { createHash } from 'node:crypto';
import type { QueryConfig, QueryResult } from 'pg';
import type { ReadOptions, SqlValue } from './database.js';

/**
 * How many texts get a name per pool: each is prepared once on every connection that runs it and
 * kept there. Past it a text runs unnamed, as every statement did before D368.
 */
export const MAX_PREPARED_TEXTS = 128;

/** invalid_sql_statement_name ("does not exist") and duplicate_prepared_statement ("already exists"). */
const LOST_NAME = new Set(['26000', '42P05']);

export class PgStatementNames {
  private readonly names = new Map<string, string>();
  /**
   * Set for good once the server has lost a name pg thinks it prepared (a `DEALLOCATE` or `DISCARD
   * ALL`, a pooler handing this connection another server session): from then on the pool's
   * statements run unnamed.
   */
  private lost = false;

  /** A statement as pg runs it: named when asked and within the bound. */
  statement(text: string, values: SqlValue[], how: ReadOptions | undefined): QueryConfig<SqlValue[]> {
    if (!how?.prepared || this.lost) return { text, values };
    let name = this.names.get(text);
    if (name === undefined && this.names.size < MAX_PREPARED_TEXTS) {
      name = `smartcage_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
      this.names.set(text, name);
    }
    return name === undefined ? { text, values } : { name, text, values };
  }

  /**
   * `run(q)`; when q is named and the server does not hold that name as pg believes, once more
   * unnamed (a read: running it again has no effect), and no name again on this pool.
   */
  async run(
    q: QueryConfig<SqlValue[]>,
    run: (q: QueryConfig<SqlValue[]>) => Promise<QueryResult>,
  ): Promise<QueryResult> {
    if (q.name === undefined) return run(q);
    try {
      return await run(q);
    } catch (e) {
      if (!LOST_NAME.has((e as { code?: string }).code ?? '')) throw e;
      this.lost = true;
      return run({ text: q.text, values: q.values! });
    }
  }
}

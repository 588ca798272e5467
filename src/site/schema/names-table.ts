/**
 * A table of names per language for the rows of another table (member group names, tag names...):
 * one name per row and language, removed with its row.
 */

/** `CREATE TABLE <table> (tenant, <idColumn>, lang, <nameColumn>)` keyed by tenant, id and language, its id a key of `parent`. */
export function namesTable(table: string, parent: string, idColumn: string, nameColumn: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (
      tenant TEXT NOT NULL,
      ${idColumn} BIGINT NOT NULL,
      lang TEXT NOT NULL,
      ${nameColumn} TEXT NOT NULL,
      PRIMARY KEY (tenant, ${idColumn}, lang),
      FOREIGN KEY (tenant, ${idColumn}) REFERENCES ${parent} (tenant, ${idColumn}) ON DELETE CASCADE
    )`;
}

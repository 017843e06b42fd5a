import type { Schema } from '@reelbase/core';
import { INDEX_PREFIX, quote } from '@reelbase/core/sql';
import type { Pool } from 'pg';
import type { PgTables } from './pg-columns';
import { ensureSchema, SCHEMA_LOCK } from './pg-schema';
import { WINDOW_PREFIX } from './pg-windows';

/**
 * Readies a store opened for a bulk load (`reelbase seed`) and answers what its close() runs.
 *
 * The non-unique B-trees of every table that holds no row yet (the schema's `rb_ix_` indexes and
 * the search windows, `rbwin_`) are dropped, and built again at close from the loaded rows: one
 * sort each instead of an index insert per row. Measured at 300,000 videos: copying 60,000 rows
 * into a table with every index took 45.5 s, into a bare one 9.7 s plus 16 s to build them. The
 * primary and unique keys stay, so they keep guarding the load (insertMany's ON CONFLICT) and the
 * mirrors' lookups by id. The GIN indexes stay too: their pending list already takes bulk inserts
 * cheaply (dropping and rebuilding them cost more than it saved). A load writes a membership only
 * after its mirror's source rows, so no mirror trigger scans a table left without its indexes.
 *
 * The end is ensureSchema's own plan, which creates every index the schema wants and the store
 * lacks: so a load that never reached its close (a killed seed) gets them back when the store is
 * next opened, by any process.
 */
export async function beginBulkLoad(pool: Pool, schema: Schema, tables: PgTables): Promise<() => Promise<void>> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Under the lock a concurrent open takes to change the schema: it plans what this drops.
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    const empty: string[] = [];
    for (const table of tables.values()) if ((await client.query(`SELECT FROM ${table.sql} LIMIT 1`)).rowCount === 0) empty.push(table.name);
    const { rows } = await client.query<{ index: string }>(
      `SELECT i.relname AS index FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_am am ON am.oid = i.relam
        WHERE t.relnamespace = current_schema()::regnamespace AND t.relname = ANY($1) AND am.amname = 'btree' AND NOT x.indisunique
          AND (starts_with(i.relname, $2) OR starts_with(i.relname, $3))`,
      [empty, INDEX_PREFIX, WINDOW_PREFIX],
    );
    for (const { index } of rows) await client.query(`DROP INDEX ${quote(index)}`);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  return async () => {
    await ensureSchema(pool, schema);
  };
}

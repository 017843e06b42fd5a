import { createToken, eq, parseScopes, schema } from '@reelbase/core';
import { seedPopulation, type PopulationSummary } from '@reelbase/seed';
import { openPostgresStore, scratchDatabase } from '@reelbase/store-postgres';
import { join } from 'node:path';
import { record, type Bench } from '../context';
import { quickPopulation } from '../populations';
import { startReelbase } from '../processes';
import { searchCases } from './search';

/**
 * Search on PostgreSQL (issue 50): a BENCH_VIDEOS population seeded straight into a throwaway
 * database on BENCH_POSTGRES through the store's bulk path (`reelbase seed`'s, timed), then the
 * search reads at one connection and at the throughput connections, as a follower of the busiest
 * user. BENCH_CASES=postgres-search.
 */
export async function postgresSearchCases(b: Bench, dir: string): Promise<void> {
  const serverUrl = b.settings.postgres;
  if (!serverUrl) {
    b.rows.push({ case: 'search on PostgreSQL', server: 'reelbase postgres', body: '', rps: null, p50: NaN, p99: NaN, note: 'not run (set BENCH_POSTGRES)' });
    return;
  }
  const database = scratchDatabase(serverUrl);
  try {
    const url = await database.freshUrl();
    const { summary, token } = await seedPostgres(b, url);
    const server = await startReelbase(url, { REELBASE_FILES: join(dir, 'postgres-search-files') });
    try {
      await searchCases(b, server, summary, `${summary.videos} videos, PostgreSQL`, token, true, 'reelbase postgres');
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

/** The population seeded (the seed's own time recorded), and a token of a follower of its busiest user. */
async function seedPostgres(b: Bench, url: string): Promise<{ summary: PopulationSummary; token: string }> {
  const started = performance.now();
  const store = await openPostgresStore({ schema, url, bulkLoad: true });
  try {
    const summary = await seedPopulation(store, { ...quickPopulation(b.settings.videos), batchSize: 10_000 });
    const { user } = summary.busiest;
    if (!user) throw new Error('the population has no user with videos');
    const follower = await store.findOne<{ id: string; user_id: string }>('follows', eq('target_id', user.id));
    if (!follower) throw new Error(`nobody follows user ${user.id}`);
    const { token } = await store.transaction((tx) => createToken(tx, new Date(), follower.user_id, parseScopes('all')));
    await store.close();
    // Closing builds the indexes the load deferred and analyzes what it loaded: part of the seed.
    const took = performance.now() - started;
    record(b, { case: `seed ${summary.videos} videos on PostgreSQL`, server: 'reelbase postgres', body: '', rps: null, p50: took, p99: took, note: 'seedPopulation, batches of 10,000, bulkLoad (B-trees built at close)' });
    return { summary, token };
  } catch (error) {
    await store.close();
    throw error;
  }
}

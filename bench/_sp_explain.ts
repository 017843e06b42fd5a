import pg from 'pg';
import { and, eq, matches, RELEVANCE, schema, type Filter, type OrderBy } from '@reelbase/core';
import { visibleVideos } from '../packages/core/src/domain/visibility';
import { compileFind, firstTierOf, type FindRead } from '../packages/store-postgres/src/compile-query';
import { ensureSchema } from '../packages/store-postgres/src/pg-schema';
const url = process.argv[2];
const only = process.argv[3];
const pool = new pg.Pool({ connectionString: url, max: 2 });
const tables = await ensureSchema(pool, schema);
const viewer = { id: '7' } as never;
const vis = visibleVideos(viewer);
const rel: OrderBy[] = [{ field: RELEVANCE, direction: 'desc' }, { field: 'plays', direction: 'desc' }];
const date: OrderBy[] = [{ field: 'created_time', direction: 'desc' }];
const cases: [string, string, FindRead][] = [];
for (const q of ['river', 'river festival', 'river festival night', 'riv', '"night market"', 'river -festival']) {
  cases.push([`videos ${q} rel`, 'videos', { where: and(vis, matches(q)), orderBy: rel, limit: 25, offset: 0 }]);
  cases.push([`videos ${q} date`, 'videos', { where: and(vis, matches(q)), orderBy: date, limit: 25, offset: 0 }]);
}
cases.push(['user videos river', 'videos', { where: and(eq('user_id', '1'), vis, matches('river')), orderBy: date, limit: 25, offset: 0 }]);
cases.push(['users mar rel', 'users', { where: matches('mar'), orderBy: [{ field: RELEVANCE, direction: 'desc' }, { field: 'followers_total', direction: 'desc' }], limit: 25, offset: 0 }]);
for (const [name, coll, read] of cases) {
  if (only && !name.includes(only)) continue;
  const table = tables.get(coll)!;
  for (const ft of [firstTierOf(table, read), undefined]) {
    const r = ft ? { ...read, firstTier: ft } : read;
    const { sql, params } = compileFind(tables, table, r);
    const t = performance.now();
    const { rows } = await pool.query(`EXPLAIN (ANALYZE, FORMAT TEXT) ${sql}`, params);
    const ms = (performance.now() - t).toFixed(1);
    console.log(`== ${name}${ft ? ' FIRST-TIER' : ''}: ${ms} ms`);
    if (process.env.PLAN) console.log(rows.map((x) => x['QUERY PLAN']).join('\n'));
    if (!ft) break;
  }
}
await pool.end();

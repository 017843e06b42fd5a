import { schema, seedPopulation } from '@reelbase/core';
import { openPostgresStore } from '@reelbase/store-postgres';
const url = process.argv[2]; const videos = Number(process.argv[3]);
const started = performance.now();
const store = await openPostgresStore({ schema, url });
const summary = await seedPopulation(store, { users: Math.max(100, Math.round(videos / 10)), videos, batchSize: 10_000 }, {
  onProgress: (step, done, total) => { if (done === total) console.error(`${((performance.now() - started) / 1000).toFixed(0)} s ${step} ${done}`); },
});
await store.close();
console.error(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(JSON.stringify(summary));

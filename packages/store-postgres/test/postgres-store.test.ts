import type { Schema } from '@reelbase/core';
import { testStore } from '@reelbase/store-testkit';
import { openPostgresStore } from '../src/index';
import { freshUrl, notSelected } from './selection';

// Every open gets a schema of its own; reopen opens the last one again.
let current = '';

testStore({
  name: 'postgres',
  unavailable: notSelected,
  // The test server has pg_trgm (Debian's postgresql-contrib), which the driver creates.
  nearMatches: true,
  open: async (schema: Schema) => openPostgresStore({ schema, url: (current = await freshUrl()) }),
  reopen: (schema: Schema) => openPostgresStore({ schema, url: current }),
});

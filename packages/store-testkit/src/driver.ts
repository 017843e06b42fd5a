import type { Schema, Store } from '@reelbase/core';

/** What a driver's test file hands the conformance suite. */
export interface StoreTestDriver {
  /** Shown in test names, e.g. "json (memory)". */
  name: string;
  /** Opens an empty store at a fresh location; called once per test. */
  open(schema: Schema): Promise<Store>;
  /**
   * Opens the location of the most recent `open` again, after that store was closed. Given only
   * by persistent drivers; the persistence tests run only when it is present.
   */
  reopen?: (schema: Schema) => Promise<Store>;
  /**
   * The driver falls back to names near a search's bare words when its words find nothing
   * (PostgreSQL with pg_trgm: docs/search.md "Typos"); the others then find nothing.
   */
  nearMatches?: boolean;
  /**
   * Why the driver cannot run here, e.g. a database server it needs was not configured. The suite
   * then reports itself skipped with this reason instead of failing, so a developer without that
   * server still runs everything else.
   */
  unavailable?: string;
}

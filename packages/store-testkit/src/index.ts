import { describe } from 'node:test';
import { countByTests } from './count-by-tests';
import { crudTests } from './crud-tests';
import type { StoreTestDriver } from './driver';
import { filterTests } from './filter-tests';
import { generationTests } from './generation-tests';
import { mirrorTests } from './mirror-tests';
import { orderTests } from './order-tests';
import { persistenceTests } from './persistence-tests';
import { restoreTests } from './restore-tests';
import { searchPlanTests } from './search-plan-tests';
import { searchTests } from './search-tests';
import { sumByTests } from './sum-by-tests';
import { transactionTests } from './transaction-tests';
import { uniqueTests } from './unique-tests';

export type { StoreTestDriver } from './driver';
export { mulberry32 } from './mulberry32';

/**
 * Registers the Store conformance suite (node:test `describe`/`it`) for one driver. Call it at
 * the top level of the driver's test file, once per configuration:
 *
 *   testStore({ name: 'json (memory)', open: (schema) => openJsonStore({ schema }) });
 *
 * The persistence group, and the test that a set sequence survives reopening, run only when the
 * driver gives `reopen`. Nothing runs when the driver declares itself `unavailable`.
 */
export function testStore(driver: StoreTestDriver): void {
  describe(`Store conformance: ${driver.name}`, { skip: driver.unavailable ?? false }, () => {
    crudTests(driver);
    uniqueTests(driver);
    filterTests(driver);
    countByTests(driver);
    sumByTests(driver);
    orderTests(driver);
    mirrorTests(driver);
    transactionTests(driver);
    restoreTests(driver);
    generationTests(driver);
    searchTests(driver);
    searchPlanTests(driver);
    if (driver.reopen) persistenceTests(driver, driver.reopen);
  });
}

import { describe } from 'node:test';
import { crudTests } from './crud-tests';
import type { StoreTestDriver } from './driver';
import { filterTests } from './filter-tests';
import { orderTests } from './order-tests';
import { persistenceTests } from './persistence-tests';
import { transactionTests } from './transaction-tests';
import { uniqueTests } from './unique-tests';

export type { StoreTestDriver } from './driver';

/**
 * Registers the Store conformance suite (node:test `describe`/`it`) for one driver. Call it at
 * the top level of the driver's test file, once per configuration:
 *
 *   testStore({ name: 'json (memory)', open: (schema) => openJsonStore({ schema }) });
 *
 * The persistence group runs only when the driver gives `reopen`.
 */
export function testStore(driver: StoreTestDriver): void {
  describe(`Store conformance: ${driver.name}`, () => {
    crudTests(driver);
    uniqueTests(driver);
    filterTests(driver);
    orderTests(driver);
    transactionTests(driver);
    if (driver.reopen) persistenceTests(driver, driver.reopen);
  });
}

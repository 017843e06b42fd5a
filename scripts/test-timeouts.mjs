// Preloaded into every test process by scripts/test.mjs: gives each test and hook that states no
// timeout of its own the default one (REELBASE_TEST_TIMEOUT_MS), so a hang fails that one test, by
// name, in minutes. node:test's --test-timeout cannot do it on Node 20 and 22: there it bounds a
// whole file (nodejs/node#57656, per test from #57672 on). node:test takes a test's location
// from its caller, which is now this file: a failure's `test at` line names it, while the test's
// name and its suite's (which keeps its file) say which test it was.
import { createRequire, syncBuiltinESMExports } from 'node:module';

const timeout = Number(process.env.REELBASE_TEST_TIMEOUT_MS);
const nodeTest = createRequire(import.meta.url)('node:test');

/** `test([name][, options][, fn])` with `timeout` added to the options when they have none. */
const withDefault = (run) => (...args) => {
  const name = typeof args[0] === 'string' ? [args.shift()] : [];
  const options = args[0] !== null && typeof args[0] === 'object' ? args.shift() : {};
  return run(...name, { timeout, ...options }, ...args);
};

/** `before(fn[, options])`, likewise. */
const hookWithDefault = (hook) => (fn, options) => hook(fn, { timeout, ...options });

if (timeout > 0) {
  // Tests only, not suites: a suite's own `timeout` would bound all its tests together.
  for (const name of ['test', 'it']) {
    const original = nodeTest[name];
    const wrapped = withDefault(original);
    for (const variant of ['skip', 'todo', 'only']) wrapped[variant] = withDefault(original[variant]);
    nodeTest[name] = wrapped;
  }
  for (const name of ['before', 'after', 'beforeEach', 'afterEach']) nodeTest[name] = hookWithDefault(nodeTest[name]);
  syncBuiltinESMExports();
}

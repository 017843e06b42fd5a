// `node --import scripts/source-loader/register.mjs --conditions=source file.ts` runs TypeScript from
// source: the tests (scripts/test.mjs) and the processes they start (servers, workers, CLIs). It does
// what tsx did for us, and only that: TypeScript files are transpiled by esbuild (./hooks.mjs), and the
// extensionless relative imports of our sources are resolved. tsx resolved and loaded every module
// itself, node_modules included, and kept its transform cache in TMPDIR, which each test run makes
// anew: a test process spent 2–3 s of CPU loading @reelbase/http.
import * as module from 'node:module';
import * as hooks from './hooks.mjs';

// In this thread where Node has module.registerHooks (22.15 on); Node 20's hooks run on a loader
// thread of their own, and every import then waits for two messages across threads.
if (module.registerHooks) module.registerHooks(hooks);
else module.register('./hooks.mjs', import.meta.url);
// Stack traces name the TypeScript lines (each transpiled module carries its source map).
process.setSourceMapsEnabled(true);

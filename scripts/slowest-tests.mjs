// A node:test reporter run beside `spec` by scripts/test.mjs: once every file is done, the ten
// slowest tests (suites left out) with their times, so a test creeping towards its timeout is
// seen before it fails.
const shown = 10;

export default async function* slowestTests(source) {
  const tests = [];
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, details } = event.data;
    if (details?.type === 'suite' || typeof details?.duration_ms !== 'number') continue;
    tests.push({ name, ms: details.duration_ms, failed: event.type === 'test:fail' });
  }
  tests.sort((a, b) => b.ms - a.ms);
  yield `\nThe ${Math.min(shown, tests.length)} slowest of ${tests.length} tests:\n`;
  for (const t of tests.slice(0, shown)) yield `${(t.ms / 1000).toFixed(1).padStart(7)} s  ${t.name}${t.failed ? '  (failed)' : ''}\n`;
}

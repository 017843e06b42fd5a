import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

/**
 * What a package's build leaves to `import`: every package it depends on (installed beside it), never
 * bundled — a CommonJS module inlined into an ESM build breaks on its own `require` (maxmind's did).
 */
function dependenciesOf(dir: string): RegExp[] {
  const manifest = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as { dependencies?: object; peerDependencies?: object };
  const names = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  return names.map((name) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(/|$)`));
}

// One build per workspace package; packages stay separate so each can be published
// and imported on its own (cli → http → worker → blobs-* → core ← store-*).
const pkg = (dir: string, extra: Options = {}): Options => ({
  entry: { index: `${dir}/src/index.ts` },
  outDir: `${dir}/dist`,
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  dts: false,
  external: [/^@reelbase\//, ...dependenciesOf(dir)],
  ...extra,
});

export default defineConfig([
  // `@reelbase/core/sql`: what the SQL drivers share.
  // `@reelbase/core/seeding`: the record types and constructors @reelbase/seed writes with.
  pkg('packages/core', { entry: { index: 'packages/core/src/index.ts', sql: 'packages/core/src/store/sql/index.ts', seeding: 'packages/core/src/seeding.ts' } }),
  pkg('packages/store-json'),
  // The bulk writer's thread is a module of its own (bulk-writer.ts starts it beside index.js).
  pkg('packages/store-sqlite', { entry: { index: 'packages/store-sqlite/src/index.ts', 'bulk-writer-thread': 'packages/store-sqlite/src/bulk-writer-thread.ts' } }),
  pkg('packages/store-postgres'),
  pkg('packages/store-testkit'),
  pkg('packages/media'),
  pkg('packages/blobs-fs'),
  // `@reelbase/blobs-s3/tus`: the multipart state tus uses, without the SDK the store loads.
  pkg('packages/blobs-s3', { entry: { index: 'packages/blobs-s3/src/index.ts', tus: 'packages/blobs-s3/src/tus.ts' } }),
  pkg('packages/blobs-testkit'),
  pkg('packages/worker'),
  pkg('packages/client'),
  pkg('packages/seed'),
  // `@reelbase/http/s3`: the S3 blob store's old entry point, for programs that import it.
  pkg('packages/http', { entry: { index: 'packages/http/src/index.ts', s3: 'packages/http/src/s3.ts' } }),
  pkg('apps/cli'),
]);

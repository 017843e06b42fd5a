// The CLI (apps/cli/src/main.ts) and the crash tests' server as one esbuild bundle, for the processes tests start: a process
// that loads ~400 modules through the source loader spends most of its start on Node 20 sending each
// one to the loader's thread and back; a bundle is a handful of files read at once. Built from the
// current source and cached by its content (node_modules/.cache/reelbase-cli/<key>/), so tests
// still run what is in the tree, never a stale build and never dist/.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = join(root, 'node_modules', '.cache', 'reelbase-cli');
const manifest = join(cache, 'manifest.json');
/** Changes with the build options below, so an old bundle is not taken for a new one. */
const recipe = 'v2';

/** Our sources keep their own import.meta.url: player files, fixtures and the bulk writer's thread are found beside them, as from source. */
const ownModuleUrls = {
  name: 'own-module-urls',
  setup(b) {
    b.onLoad({ filter: /\.tsx?$/ }, (args) => {
      if (args.path.includes(`${join('/', 'node_modules', '/')}`)) return undefined;
      const contents = readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
      return { contents, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
    });
  },
};

/**
 * Installed packages stay out of the bundle, imported by their path as resolved from the file that
 * imports them: some workspaces install their own version (core's ipaddr.js, the CLI's commander),
 * which the bundle's directory would not find. Our own packages (@reelbase/*) are bundled from source.
 */
const packagesWhereTheyAre = {
  name: 'packages-where-they-are',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@reelbase/') || args.pluginData === 'own') return undefined;
      const found = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'own' });
      if (found.errors.length) return { errors: found.errors };
      return { path: found.external ? args.path : pathToFileURL(found.path).href, external: true };
    });
  },
};

/**
 * The key of the sources `inputs` (paths relative to the repository) as they are now; null when one
 * is gone. The checkout's own path counts: the bundle names installed packages by their absolute path,
 * and a copy of the checkout (scripts/with-node.sh, which rebuilds better-sqlite3 in it) must not
 * take the original's bundle with the original's packages.
 */
function keyOf(inputs) {
  const hash = createHash('sha1').update(recipe).update(root).update(readFileSync(join(root, 'package-lock.json')));
  for (const input of inputs) {
    const path = join(root, input);
    if (!existsSync(path)) return null;
    hash.update(input).update('\0').update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 20);
}

/** The entry of the current bundle: the cached one when no source it was made from has changed, else a new one. */
export async function cliBundle() {
  try {
    const last = JSON.parse(readFileSync(manifest, 'utf8'));
    const entry = join(cache, last.key, 'main.js');
    if (keyOf(last.inputs) === last.key && existsSync(entry)) {
      // Marked as used now, so removeOldBundles leaves it to the runs using it.
      const now = new Date();
      utimesSync(join(cache, last.key), now, now);
      return entry;
    }
  } catch {
    // No bundle yet, or a manifest cut short: build one.
  }
  mkdirSync(cache, { recursive: true });
  // Built beside the cache and renamed into place: test runs started at once may build it together.
  const scratch = join(cache, `build-${process.pid}-${Date.now()}`);
  const result = await build({
    // The crash-safety tests' server beside the CLI: a process they start again and again.
    entryPoints: { main: join(root, 'apps', 'cli', 'src', 'main.ts'), 'crash-server': join(root, 'packages', 'api-tests', 'src', 'crash-server.ts') },
    absWorkingDir: root,
    outdir: scratch,
    bundle: true,
    // The TUI and ink's progress view are imported on demand: in chunks of their own, as from source.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['source'],
    // Stack traces of a spawned CLI point at the TypeScript lines (--enable-source-maps reads these).
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'silent',
    plugins: [ownModuleUrls, packagesWhereTheyAre],
  });
  // Paths relative to the repository (absWorkingDir).
  const inputs = Object.keys(result.metafile.inputs).sort();
  const key = keyOf(inputs);
  const dir = join(cache, key);
  try {
    renameSync(scratch, dir);
  } catch {
    // Another run made the same bundle first.
    rmSync(scratch, { recursive: true, force: true });
  }
  writeFileSync(`${manifest}.${process.pid}`, JSON.stringify({ key, inputs }));
  renameSync(`${manifest}.${process.pid}`, manifest);
  removeOldBundles();
  return join(dir, 'main.js');
}

/** Bundles not used for a day (a few MB each, one per edit of the sources): no run still uses them. */
function removeOldBundles() {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const entry of readdirSync(cache, { withFileTypes: true })) {
    const path = join(cache, entry.name);
    if (entry.isDirectory() && statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
  }
}

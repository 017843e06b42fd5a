// Module hooks of ./register.mjs. Synchronous, so that they serve both module.registerHooks (in the
// thread that imports) and module.register (on Node's loader thread, which awaits what they answer).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { transformSync } from 'esbuild';

const typeScript = /\.tsx?$/;
/** What an extensionless import of ours names, in the order TypeScript's "Bundler" resolution tries. */
const candidates = ['.ts', '.tsx', '/index.ts', '/index.tsx'];
/** Extensions Node resolves itself: the import names its file. */
const named = /\.(mjs|cjs|json|node|wasm|ts|tsx)$/;

const options = {
  format: 'esm',
  target: `node${process.versions.node}`,
  jsx: 'automatic',
  sourcemap: 'inline',
  tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } },
};
/**
 * Transpiled files, keyed by their URL, source and the options: an edited file gets a new key, so
 * the cache is never stale, and it outlives the run (a file is transpiled once, not once a process).
 */
const cache = new URL('../../node_modules/.cache/reelbase-source/', import.meta.url);
mkdirSync(cache, { recursive: true });
const optionsKey = JSON.stringify(options);

function isFile(url) {
  try {
    // Most candidates do not exist: a stat that answers undefined costs less than one that throws.
    return statSync(new URL(url), { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false; // ENOTDIR: a file's name followed by /index.ts
  }
}

export function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL;
  if (parent && typeScript.test(parent) && (specifier.startsWith('./') || specifier.startsWith('../')) && !named.test(specifier)) {
    const url = new URL(specifier, parent);
    url.search = url.hash = '';
    const href = url.href;
    // `./x.js` names x.ts when there is no x.js (TypeScript's convention); `./x` names x.ts or x/index.ts.
    if (!href.endsWith('.js') || !isFile(href)) {
      const stem = href.endsWith('.js') ? href.slice(0, -3) : href;
      for (const c of candidates) if (isFile(stem + c)) return { url: stem + c, format: 'module', shortCircuit: true };
    }
  }
  return nextResolve(specifier, context);
}

export function load(url, context, nextLoad) {
  if (!typeScript.test(url)) return nextLoad(url, context);
  const source = readFileSync(new URL(url), 'utf8');
  const key = createHash('sha1').update(optionsKey).update(url).update(source).digest('hex');
  const cached = new URL(`${key}.js`, cache);
  let code;
  try {
    code = readFileSync(cached, 'utf8');
  } catch {
    code = transformSync(source, { ...options, loader: url.endsWith('x') ? 'tsx' : 'ts', sourcefile: url }).code;
    // Written whole, then renamed: processes loading the same file at once never read half of it.
    const partial = new URL(`${key}.${process.pid}-${threadId}.partial`, cache);
    writeFileSync(partial, code);
    renameSync(partial, cached);
  }
  return { format: 'module', source: code, shortCircuit: true };
}

// Core's layers run one way (docs/architecture.md): this reads every import under packages/core/src
// and fails on an edge the layering forbids, naming the file and the import, so it stays true.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const src = fileURLToPath(new URL('../src', import.meta.url));
/** The folders each folder must not import from (besides the no-cycles rule below). */
const forbidden: Record<string, readonly string[]> = {
  support: ['*'],
  domain: ['representations'],
  representations: ['domain', 'operations'],
  engine: ['representations', 'operations'],
};

interface Edge {
  readonly file: string;
  readonly specifier: string;
  readonly from: string;
  readonly to: string;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** A path's unit of layering: its top-level folder under src, or the top-level file's name. */
function unitOf(path: string): string {
  return relative(src, path).split(sep)[0]!.replace(/\.ts$/, '');
}

/** Every relative import of core (`import`, `import type`, `export … from`, `import()`) as an edge between units. */
function coreEdges(): Edge[] {
  return tsFiles(src).flatMap((path) => {
    const from = unitOf(path);
    // preProcessFile reads the import and export-from declarations, type-only ones and dynamic imports.
    const { importedFiles } = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
    return importedFiles
      .filter(({ fileName }) => fileName.startsWith('.'))
      .map(({ fileName }) => ({ file: relative(src, path), specifier: fileName, from, to: unitOf(resolve(dirname(path), fileName)) }))
      .filter((edge) => edge.from !== edge.to);
  });
}

const show = (edges: readonly Edge[]) => edges.map((e) => `  ${e.file} imports '${e.specifier}' (${e.from} → ${e.to})`).join('\n');

describe("core's layers", () => {
  const edges = coreEdges();

  it('reads the imports it judges', () => {
    assert.ok(edges.some((e) => e.from === 'operations' && e.to === 'domain'));
  });

  const isForbidden = (e: Edge) => (forbidden[e.from] ?? []).some((t) => t === '*' || t === e.to);
  const pairs = new Set(edges.map((e) => `${e.from}→${e.to}`));

  for (const [from, targets] of Object.entries(forbidden)) {
    it(`${from}/ imports nothing from ${targets.includes('*') ? 'the rest of core' : targets.map((t) => `${t}/`).join(' or ')}`, () => {
      const bad = edges.filter((e) => e.from === from && isForbidden(e));
      assert.equal(bad.length, 0, `forbidden imports:\n${show(bad)}`);
    });
  }

  it('no two folders import each other', () => {
    const bad = edges.filter((e) => pairs.has(`${e.to}→${e.from}`));
    assert.equal(bad.length, 0, `folders that import each other:\n${show(bad)}`);
  });

  it('the folders form layers: no cycle through any number of them', () => {
    // Peel off, again and again, the folders that import no folder left; a cycle is what never peels.
    let left = new Set(edges.map((e) => e.from));
    for (let peeled = true; peeled; ) {
      const leaves = [...left].filter((u) => !edges.some((e) => e.from === u && left.has(e.to)));
      peeled = leaves.length > 0;
      left = new Set([...left].filter((u) => !leaves.includes(u)));
    }
    assert.deepEqual([...left].sort(), [], `a cycle runs through:\n${show(edges.filter((e) => left.has(e.from) && left.has(e.to)))}`);
  });
});

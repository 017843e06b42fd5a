import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { operations, renderReference } from '../src/index';

it('docs/reference.md is generated from the current operation table (run `npm run docs`)', () => {
  const onDisk = readFileSync(new URL('../../../docs/reference.md', import.meta.url), 'utf8');
  assert.equal(onDisk, renderReference(operations));
});

it('the reference documents every operation with its paths and parameters', () => {
  const text = renderReference(operations);
  for (const op of operations) {
    assert.ok(text.includes(`## \`${op.id}\``), op.id);
    for (const path of op.paths) assert.ok(text.includes(`\`${op.method} ${path}\``), path);
  }
  assert.match(text, /\| `spatial\.field_of_view` \| integer \|/);
  assert.match(text, /\| `privacy\.view` \| enum anybody, contacts, disable, nobody, password, unlisted, users \|/);
});

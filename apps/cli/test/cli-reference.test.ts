import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { renderCliReference } from '../src/index';

it('docs/cli-reference.md is generated from the current commander program (run `npm run docs`)', () => {
  const onDisk = readFileSync(new URL('../../../docs/cli-reference.md', import.meta.url), 'utf8');
  assert.equal(onDisk, renderCliReference());
});

it('the reference covers every command with its flags and examples', () => {
  const text = renderCliReference();
  for (const name of ['serve', 'users create', 'tokens create', 'api', 'call', 'operations']) assert.ok(text.includes(`## reelbase ${name}\n`), name);
  assert.match(text, /--all +walk every page of a list/);
  assert.match(text, /reelbase call videos\.get --video_id 7/);
});

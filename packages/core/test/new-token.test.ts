import assert from 'node:assert/strict';
import { it } from 'node:test';
import { newToken } from '../src/engine/auth';

// Without the redraw, about 60 of 4,000 tokens would start with '-' and read as an option on a command line.
it('issues 43-character base64url tokens that never start with "-", all distinct', () => {
  const tokens = Array.from({ length: 4000 }, newToken);
  for (const token of tokens) assert.match(token, /^[A-Za-z0-9_][A-Za-z0-9_-]{42}$/);
  assert.equal(new Set(tokens).size, tokens.length);
});

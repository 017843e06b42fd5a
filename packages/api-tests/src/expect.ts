import assert from 'node:assert/strict';
import type { Answer } from './harness';

/** Asserts the Error representation: status, error_code and (optionally) the offending field. */
export function expectError(answer: Answer, status: number, code: number, field?: string): void {
  assert.equal(answer.status, status, `expected ${status}, got ${answer.status}: ${answer.text}`);
  assert.equal(answer.body?.error_code, code, `expected error_code ${code}: ${answer.text}`);
  assert.equal(typeof answer.body.error, 'string');
  assert.equal(typeof answer.body.developer_message, 'string');
  assert.ok('link' in answer.body);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/vnd\.reelbase\.error\+json|^application\/json/);
  if (field) {
    const fields = (answer.body.invalid_parameters ?? []).map((p: { field: string }) => p.field);
    assert.ok(fields.includes(field), `expected invalid_parameters to name ${field}: ${answer.text}`);
  }
}

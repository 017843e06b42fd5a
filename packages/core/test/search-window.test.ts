import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listReply, pageOf, type ListParams } from '../src/engine/list';
import type { ApiError } from '../src/engine/errors';
import type { Context } from '../src/engine/operation';
import { SEARCH_WINDOW } from '../src/store/search';

/** Just what listReply reads of a request to a list. */
const listContext = (params: ListParams, search: string): Context<unknown> =>
  ({ params, request: { path: '/videos', search, headers: {} } }) as unknown as Context<unknown>;

describe('the search window (SEARCH_WINDOW)', () => {
  it('refuses a search page starting past the first 10,000 results, naming page, and no other list page', () => {
    assert.equal(SEARCH_WINDOW, 10_000);
    assert.deepEqual(pageOf({ query: 'harbour', page: 400 }), { page: 400, perPage: 25, offset: 9975, limit: 25 });
    assert.deepEqual(pageOf({ query: 'harbour', page: 334, per_page: 30 }), { page: 334, perPage: 30, offset: 9990, limit: 30 });
    for (const params of [{ query: 'harbour', page: 401 }, { query: 'harbour', page: 101, per_page: 100 }]) {
      assert.throws(
        () => pageOf(params),
        (e: ApiError) => e.status === 400 && e.code === 2204 && e.invalidParameters?.[0]?.field === 'page' && e.developerMessage.includes('first 10000 results'),
      );
    }
    assert.deepEqual(pageOf({ page: 401 }), { page: 401, perPage: 25, offset: 10_000, limit: 25 });
    assert.deepEqual(pageOf({ query: '  ', page: 401 }), { page: 401, perPage: 25, offset: 10_000, limit: 25 });
  });

  it("ends a search's paging at the window's last page, and any other list's at its total's", () => {
    const last = (params: ListParams, total: number) => {
      const reply = listReply(listContext(params, new URLSearchParams(params as Record<string, string>).toString()), pageOf(params), total, [], 'video');
      return (reply.body as { paging: { last: string; next: string | null } }).paging;
    };
    assert.equal(last({ query: 'harbour' }, 900_000).last, '/videos?query=harbour&page=400&per_page=25');
    assert.equal(last({ query: 'harbour', per_page: 30 }, 900_000).last, '/videos?query=harbour&per_page=30&page=334');
    assert.equal(last({ query: 'harbour', page: 400 }, 900_000).next, null);
    assert.equal(last({ query: 'harbour' }, 260).last, '/videos?query=harbour&page=11&per_page=25');
    assert.equal(last({}, 900_000).last, '/videos?page=36000&per_page=25');
  });
});

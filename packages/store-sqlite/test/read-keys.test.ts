import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { and, deepFreeze, eq, inSelect, isIn, not, or, type Filter } from '@reelbase/core';
import { readKey } from '../src/read-keys';

// A shared condition's text is made once; a key must read the same whether parts are shared or not.

const visible = (viewer: string): Filter =>
  or(eq('user_id', viewer), eq('privacy_view', 'anybody'), and(eq('privacy_view', 'users'), inSelect('id', 'video_access', 'video_id', eq('user_id', viewer))));

describe('read keys', () => {
  it('are the JSON of what was asked, whichever parts of the condition are shared', () => {
    const fresh = and(eq('user_id', '7'), visible('9'), not(isIn('id', ['1', '2'])), inSelect('id', 'likes', 'video_id'));
    const withShared = and(eq('user_id', '7'), deepFreeze(visible('9')), not(isIn('id', ['1', '2'])), inSelect('id', 'likes', 'video_id'));
    const expected = `videos\u0000find\u0000{"limit":25}\u0000${JSON.stringify(fresh)}`;
    assert.equal(readKey('videos', 'find', fresh, { limit: 25 }), expected);
    assert.equal(readKey('videos', 'find', withShared, { limit: 25 }), expected);
    assert.equal(readKey('videos', 'find', deepFreeze(fresh), { limit: 25 }), expected, 'a shared whole, twice');
    assert.equal(readKey('videos', 'find', deepFreeze(fresh), { limit: 25 }), expected);
  });

  it('differ for anything asked differently', () => {
    const keys = [
      readKey('videos', 'find', visible('9'), { limit: 25 }),
      readKey('videos', 'find', deepFreeze(visible('8')), { limit: 25 }),
      readKey('videos', 'find', visible('9'), { limit: 25, offset: 25 }),
      readKey('videos', 'one', visible('9'), { limit: 25 }),
      readKey('videos', 'count', visible('9'), null),
      readKey('channels', 'count', visible('9'), null),
      readKey('videos', 'count', undefined, null),
      readKey('videos', 'count', and(), null),
    ];
    assert.equal(new Set(keys).size, keys.length);
  });

  it('of a shared condition (remembered per condition and the rest of the read, a few at a time) stay right however it is read', () => {
    const shared = deepFreeze(visible('9'));
    for (let round = 0; round < 2; round++) {
      for (const table of ['videos', 'likes']) {
        for (let offset = 0; offset < 40 * 25; offset += 25) {
          const rest = { limit: 25, offset };
          assert.equal(readKey(table, 'find', shared, rest), `${table}\u0000find\u0000${JSON.stringify(rest)}\u0000${JSON.stringify(visible('9'))}`);
        }
        assert.equal(readKey(table, 'count', shared, null), `${table}\u0000count\u0000null\u0000${JSON.stringify(visible('9'))}`);
      }
    }
  });
});

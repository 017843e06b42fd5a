import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pick, renderTable } from '../src/render/table';

/** The plain-text table: a column's dot path reaches into arrays as `fields` does (issue 47: an empty TAGS column). */
describe('render table', () => {
  const video = {
    uri: '/videos/1',
    name: 'First light',
    tags: [{ name: 'night', canonical: 'night' }, { name: 'stars', canonical: 'stars' }],
    pictures: { sizes: [{ width: 100, link: 'http://x/100' }, { width: 200, link: 'http://x/200' }] },
  };

  it('a path through an array of objects lists each element’s value; a number picks one element', () => {
    assert.deepEqual(pick(video, 'tags.name'), ['night', 'stars']);
    assert.deepEqual(pick(video, 'pictures.sizes.width'), [100, 200]);
    assert.equal(pick(video, 'pictures.sizes.1.link'), 'http://x/200');
    assert.deepEqual(pick(video, 'tags.missing'), [], 'no element has it: an empty cell');
  });

  it('videos list --fields uri,name,tags.name prints the tags in their column', () => {
    const untagged = { uri: '/videos/2', name: 'Dusk', tags: [] };
    assert.equal(
      renderTable([video, untagged], ['uri', 'name', 'tags.name']),
      'URI        NAME         TAGS.NAME\n/videos/1  First light  night,stars\n/videos/2  Dusk\n',
    );
  });
});

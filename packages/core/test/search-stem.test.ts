import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSearch, stemOf } from '@reelbase/core';

describe('stemOf: the beginning a word shares with its forms', () => {
  const stems: [string, string][] = [
    ['documentaries', 'documentar'],
    ['documentary', 'documentar'],
    ['making', 'mak'],
    ['make', 'mak'],
    ['stopped', 'stop'],
    ['running', 'run'],
    ['plays', 'play'],
    ['played', 'play'],
    ['boxes', 'box'],
    ['churches', 'church'],
    ['glasses', 'glass'],
    ['cities', 'cit'],
    ['tutorials', 'tutorial'],
    ['fishing', 'fish'],
  ];
  for (const [word, stem] of stems) it(`${word} → ${stem}`, () => assert.equal(stemOf(word), stem));

  it('keeps short words, words ending in -ss, -us, -is, and words with digits whole', () => {
    for (const word of ['bus', 'is', 'glass', 'analysis', 'campus', 'ama', '1990s', 'x264']) assert.equal(stemOf(word), word);
  });
});

describe('parseSearch stems bare words only', () => {
  it('stems bare and excluded words, never a quoted phrase', () => {
    assert.deepEqual(parseSearch('documentaries -cities "red cars"').terms, [
      { words: ['documentar'], phrase: false, exclude: false },
      { words: ['cit'], phrase: false, exclude: true },
      { words: ['red', 'cars'], phrase: true, exclude: false },
    ]);
  });
});

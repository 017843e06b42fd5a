import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTime, playerOptions } from '../src/domain/embed-params';
import type { EmbedSettings } from '../src/records';

const embed = (over: Partial<EmbedSettings> = {}): EmbedSettings => ({
  buttons: { embed: true, fullscreen: true, hd: true, like: true, scaling: true, share: true, watchlater: true },
  color: '#00adef',
  logos: { service: true, custom: { active: false, link: null, sticky: false } },
  playbar: true,
  volume: true,
  title: { name: 'user', owner: 'user', portrait: 'user' },
  ...over,
});

const defaults = {
  autoplay: false, muted: false, loop: false, autopause: true, controls: true, title: true, byline: true, portrait: true,
  color: null, start: null, texttrack: null, quality: null, speed: true, keyboard: true, dnt: false, playsinline: true,
};

describe('the player’s embed URL parameters', () => {
  it('default to the embed settings, and read 1/0 and true/false', () => {
    assert.deepEqual(playerOptions({}, embed()), defaults);
    assert.deepEqual(
      playerOptions({ autoplay: '1', muted: 'true', loop: '1', autopause: '0', controls: 'false', title: '0', byline: '0', portrait: '0', speed: '0', keyboard: '0', dnt: '1', playsinline: '0' }, embed()),
      { ...defaults, autoplay: true, muted: true, loop: true, autopause: false, controls: false, title: false, byline: false, portrait: false, speed: false, keyboard: false, dnt: true, playsinline: false },
    );
  });

  it('background=1 is a silent looping autoplay with nothing over the picture', () => {
    assert.deepEqual(playerOptions({ background: '1', controls: '1', title: '1' }, embed()), { ...defaults, autoplay: true, muted: true, loop: true, controls: false, title: false, byline: false, portrait: false });
  });

  it('take the colour only where the owner kept the default one, and never show what the owner hides', () => {
    assert.equal(playerOptions({ color: 'FF0000' }, embed()).color, '#ff0000');
    assert.equal(playerOptions({ color: '#abc' }, embed()).color, '#abc');
    assert.equal(playerOptions({ color: 'ff0000' }, embed({ color: '#123abc' })).color, null, 'a colour the owner chose stays');
    assert.equal(playerOptions({ controls: '1' }, embed({ playbar: false })).controls, false);
  });

  it('read t= (90, 90s, 1m30s, 1h2m3s), texttrack and quality', () => {
    assert.deepEqual(['90', '90s', '1m30s', '1h2m3s', '2.5', '1m'].map(parseTime), [90, 90, 90, 3723, 2.5, 60]);
    const o = playerOptions({ t: '1m30s', texttrack: 'fr-CA', quality: '360p' }, embed());
    assert.deepEqual([o.start, o.texttrack, o.quality], [90, 'fr-CA', '360p']);
    assert.equal(playerOptions({ quality: 'auto' }, embed()).quality, 'auto');
  });

  it('ignore values they do not understand (the page, not an error)', () => {
    const bad = { autoplay: 'yes', muted: '', controls: '2', color: 'red', t: 'soon', texttrack: '<x>', quality: 'best', keyboard: 'off', background: 'maybe' };
    assert.deepEqual(playerOptions(bad, embed()), defaults);
    assert.deepEqual(['', 'h', 'm30', '1x', '-5'].map(parseTime), [null, null, null, null, null]);
  });
});

/*
 * The player.js protocol, as `@vimeo/player` speaks it with the hosted player, served at
 * `/static/player/protocol.js` after player.js (whose `window.reelbasePlayer` it drives):
 *
 * - the page posts `{event: "ready"}` to its parent once it can take calls (and answers a `ping`);
 * - the parent posts `{method, value}`; the page answers `{method, value}`, one answer per call
 *   (the parent matches them to its calls by method, in order); a call that fails answers
 *   `{event: "error", data: {method, name, message}}`;
 * - `addEventListener`/`removeEventListener` (value: an event name) subscribe the parent to
 *   `{event, data}` messages.
 *
 * Messages may arrive as objects or as JSON strings (old browsers). Answers go to the origin that
 * called; events to the origin that subscribed. Which pages may frame the player at all is the
 * page's CSP `frame-ancestors` (the video's embed privacy); nothing said here is more than what
 * such a page may already see.
 *
 * A page with nothing to play (its `.state` message: the video is being processed, or its
 * transcode failed) loads this script alone: it posts `ready` and answers the video's id, title
 * and URL, and every other method the player answers with an `UnavailableError` whose message is
 * the page's; it posts no events.
 */
(function () {
  'use strict';
  if (window.parent === window) return;
  var player = window.reelbasePlayer;
  var state = player ? null : document.querySelector('.state');
  if (!player && !state) return;
  var video = player && player.video;
  /** Subscribed event name → the origin that asked for it. */
  var subscribed = {};

  function post(message, origin) {
    window.parent.postMessage(message, origin || '*');
  }

  function fail(name, message) {
    var error = new Error(message);
    error.name = name;
    return error;
  }

  /** A time event's data: where the playhead is, of how long. */
  function timing(at) {
    var duration = player.duration();
    var seconds = at === undefined ? video.currentTime : at;
    return { seconds: round(seconds), percent: duration ? round(seconds / duration) : 0, duration: round(duration) };
  }
  function round(n) { return Math.round(n * 1000) / 1000; }

  function number(value, low, high, what) {
    var n = Number(value);
    if (typeof value === 'boolean' || value === null || value === '' || !isFinite(n)) throw fail('TypeError', what + ' must be a number.');
    if (n < low || n > high) throw fail('RangeError', what + ' must be between ' + low + ' and ' + high + '.');
    return n;
  }

  /** What any page answers, whether or not it can play. */
  var identity = {
    ping: function () {},
    getVideoId: function () {
      var id = document.body.getAttribute('data-video-id');
      return /^\d+$/.test(id) ? Number(id) : id;
    },
    getVideoTitle: function () { return player ? player.title : document.title; },
    getVideoUrl: function () { return player ? player.url : state.getAttribute('data-video-url'); },
  };

  /** Each method of a page that plays: its answer's value (or a promise of it), or a thrown error. */
  var methods = {
    play: function () { return video.play().then(function () {}); },
    pause: function () { video.pause(); },
    getPaused: function () { return video.paused; },
    getEnded: function () { return video.ended; },
    getCurrentTime: function () { return video.currentTime; },
    setCurrentTime: function (value) {
      var end = isFinite(video.duration) && video.duration > 0 ? video.duration : Infinity;
      video.currentTime = number(value, 0, end, 'Seconds');
      return video.currentTime;
    },
    getDuration: function () { return player.duration(); },
    getVolume: function () { return video.volume; },
    setVolume: function (value) { return (video.volume = number(value, 0, 1, 'Volume')); },
    getMuted: function () { return video.muted; },
    setMuted: function (value) { return (video.muted = !!value); },
    getLoop: function () { return video.loop; },
    setLoop: function (value) { return (video.loop = !!value); },
    getPlaybackRate: function () { return video.playbackRate; },
    setPlaybackRate: function (value) { return (video.playbackRate = number(value, 0.5, 2, 'Playback rate')); },
    getAutopause: function () { return player.autopause; },
    setAutopause: function (value) { return (player.autopause = !!value); },
    getColor: function () { return (player.color || '').replace('#', ''); },
    getVideoWidth: function () { return video.videoWidth || Number(video.getAttribute('width')) || 0; },
    getVideoHeight: function () { return video.videoHeight || Number(video.getAttribute('height')) || 0; },
    getSeeking: function () { return video.seeking; },
    getFullscreen: function () { return !!document.fullscreenElement; },
    getBuffered: function () { return ranges(video.buffered); },
    getPlayed: function () { return ranges(video.played); },
    getSeekable: function () { return ranges(video.seekable); },
    getQualities: function () { return player.qualities(); },
    getQuality: function () { return player.quality(); },
    setQuality: function (value) {
      if (!player.setQuality(String(value))) throw fail('TypeError', 'The quality ' + value + ' is not available.');
      return String(value);
    },
    getTextTracks: function () { return player.textTracks(); },
    enableTextTrack: function (value) {
      var v = value || {};
      if (!player.enableTextTrack(v.language, v.kind, v.showing)) throw fail('InvalidTrackLanguageError', 'There is no track of language ' + v.language + (v.kind ? ' and kind ' + v.kind : '') + '.');
      return player.textTracks().filter(function (t) { return t.mode !== 'disabled'; })[0];
    },
    disableTextTrack: function () { player.disableTextTrack(); },
    getChapters: function () { return player.chapters; },
    getCurrentChapter: function () { return player.currentChapter(); },
  };

  function ranges(r) {
    var out = [];
    for (var i = 0; i < r.length; i++) out.push([r.start(i), r.end(i)]);
    return out;
  }

  window.addEventListener('message', function (e) {
    if (e.source !== window.parent) return;
    var message = e.data;
    if (typeof message === 'string') {
      try { message = JSON.parse(message); } catch (error) { return; }
    }
    if (!message || typeof message.method !== 'string') return;
    var method = message.method;
    var value = message.value;
    if (method === 'addEventListener' || method === 'removeEventListener') {
      if (method === 'addEventListener') subscribed[value] = e.origin;
      else delete subscribed[value];
      post({ method: method, value: value }, e.origin);
      return;
    }
    var answer = new Promise(function (resolve) {
      if (has(identity, method)) return resolve(identity[method](value));
      if (!has(methods, method)) throw fail('TypeError', 'The method ' + method + ' is not supported.');
      if (!player) throw fail('UnavailableError', state.textContent);
      resolve(methods[method](value));
    });
    answer.then(
      function (result) {
        var reply = { method: method };
        if (result !== undefined) reply.value = result;
        post(reply, e.origin);
      },
      function (error) {
        post({ event: 'error', data: { method: method, name: error.name || 'Error', message: error.message || String(error) } }, e.origin);
      },
    );
  });

  function has(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }

  /** Posts `event` with `data` to the parent, when it subscribed. */
  function send(event, data) {
    if (has(subscribed, event)) post({ event: event, data: data }, subscribed[event]);
  }

  if (player) listen();
  post({ event: 'ready' });

  /** Forwards the video's events (and the player's `reelbase:*` ones) to the subscribers. */
  function listen() {
    var timed = { play: 'play', playing: 'playing', pause: 'pause', ended: 'ended', timeupdate: 'timeupdate', seeking: 'seeking', seeked: 'seeked' };
    Object.keys(timed).forEach(function (name) {
      video.addEventListener(name, function () { send(timed[name], timing()); });
    });
    // progress: how much has loaded, as the hosted player reports it.
    video.addEventListener('progress', function () {
      var b = video.buffered;
      send('progress', timing(b.length ? b.end(b.length - 1) : 0));
    });
    video.addEventListener('volumechange', function () { send('volumechange', { volume: video.volume, muted: video.muted }); });
    video.addEventListener('ratechange', function () { send('playbackratechange', { playbackRate: video.playbackRate }); });
    video.addEventListener('loadedmetadata', function () { send('loaded', { id: identity.getVideoId() }); });
    var buffering = false;
    video.addEventListener('waiting', function () {
      if (buffering) return;
      buffering = true;
      send('bufferstart', {});
    });
    ['playing', 'canplay', 'seeked'].forEach(function (name) {
      video.addEventListener(name, function () {
        if (!buffering) return;
        buffering = false;
        send('bufferend', {});
      });
    });
    video.addEventListener('error', function () {
      var e = video.error;
      send('error', { name: 'MediaError', message: (e && e.message) || 'The video could not be played.', method: null });
    });
    ['qualitychange', 'texttrackchange', 'chapterchange'].forEach(function (name) {
      video.addEventListener('reelbase:' + name, function (e) { send(name, e.detail); });
    });
    // The player's `f` key and the browser's fullscreen button alike (the iframe needs `allow="fullscreen"`).
    document.addEventListener('fullscreenchange', function () { send('fullscreenchange', { fullscreen: !!document.fullscreenElement }); });
  }
})();

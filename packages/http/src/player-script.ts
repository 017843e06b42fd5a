/**
 * The player page's own script, served at `/static/player/player.js` after hls.js (both deferred,
 * in that order). It plays the master playlist in the video's `data-hls`:
 *
 * - natively where the browser plays HLS well: Safari, known by ManagedMediaSource, and a browser
 *   with no MediaSource at all (iPhone before iOS 17.1). Chromium also answers "maybe" to the HLS
 *   type but plays fewer streams than hls.js (hls.js's README says as much), so it gets hls.js;
 * - elsewhere through hls.js over MediaSource, capped to the player's size; a fatal error falls
 *   back to the progressive `src`;
 * - with neither (or hls.js blocked), the progressive `src` stays.
 *
 * Like the page's `preload="none"`, nothing is fetched before the viewer plays. The `<track>`s
 * are the page's: hls.js touches only text tracks it made itself.
 *
 * With a storyboard (`data-storyboard`, a WebVTT file of `sheet.jpg#xywh=x,y,w,h` cues), the
 * pointer over the bottom of the player (where the seek bar is) shows the tile of the time under
 * it, in the page's `.storyboard` box; the file is fetched when the pointer first comes there.
 *
 * With `data-next` (an album's player), the end of the video opens the next one's page, whose
 * `#play` starts it.
 */
export const playerScript = `(function () {
  'use strict';
  var video = document.getElementById('player');
  if (!video) return;
  var board = video.getAttribute('data-storyboard');
  var box = document.querySelector('.storyboard');
  if (board && box) {
    var cues = null;
    var stamp = function (text) {
      var parts = text.split(':').map(Number);
      return parts.reduce(function (sum, part) { return sum * 60 + part; }, 0);
    };
    var last = null;
    var load = function () {
      cues = [];
      fetch(board).then(function (r) { return r.text(); }).then(function (text) {
        var found = /(\\S+) --> (\\S+)\\n(\\S+)#xywh=(\\d+),(\\d+),(\\d+),(\\d+)/g;
        for (var m = found.exec(text); m; m = found.exec(text)) {
          cues.push({ start: stamp(m[1]), end: stamp(m[2]), url: new URL(m[3], board).href, x: +m[4], y: +m[5], w: +m[6], h: +m[7] });
        }
        // The pointer that asked for them may be resting there still.
        if (last) show(last);
      }).catch(function () {});
    };
    var show = function (e) {
      var rect = video.getBoundingClientRect();
      last = e;
      if (rect.bottom - e.clientY > 48) { box.hidden = true; return; }
      if (!cues) load();
      var end = cues.length ? cues[cues.length - 1].end : 0;
      var duration = video.duration > 0 && isFinite(video.duration) ? video.duration : end;
      var t = Math.max(0, Math.min(1, (e.clientX - rect.left) / rect.width)) * duration;
      var cue = cues.filter(function (c) { return t >= c.start && t < c.end; })[0] || (t >= end && cues[cues.length - 1]);
      if (!cue) { box.hidden = true; return; }
      box.style.width = cue.w + 'px';
      box.style.height = cue.h + 'px';
      box.style.backgroundImage = 'url("' + cue.url + '")';
      box.style.backgroundPosition = -cue.x + 'px ' + -cue.y + 'px';
      box.style.left = Math.max(0, Math.min(rect.width - cue.w, e.clientX - rect.left - cue.w / 2)) + 'px';
      box.hidden = false;
    };
    video.addEventListener('pointermove', show);
    video.addEventListener('pointerleave', function () {
      last = null;
      box.hidden = true;
    });
  }
  // An album's player goes on to its next video at the end, and that page plays at once.
  var next = video.getAttribute('data-next');
  if (next) video.addEventListener('ended', function () { location.href = next; });
  stream();
  if (location.hash === '#play') video.play().catch(function () {});

  function stream() {
    var stream = video.getAttribute('data-hls');
    // The viewer may have started the progressive file before this ran: leave it playing.
    if (!stream || !video.paused || video.readyState > 0) return;
    var progressive = video.getAttribute('src');
    var native = video.canPlayType('application/vnd.apple.mpegurl') !== '';
    if (native && ('ManagedMediaSource' in window || !('MediaSource' in window))) {
      video.src = stream;
      return;
    }
    var Hls = window.Hls;
    if (!Hls || !Hls.isSupported()) return;
    var hls = new Hls({ capLevelToPlayerSize: true });
    hls.on(Hls.Events.ERROR, function (event, data) {
      if (!data.fatal || !hls) return;
      var playing = !video.paused;
      hls.destroy();
      hls = null;
      video.src = progressive;
      if (playing) video.play().catch(function () {});
    });
    hls.attachMedia(video);
    video.addEventListener('play', function () {
      if (hls) hls.loadSource(stream);
    }, { once: true });
  }
})();
`;

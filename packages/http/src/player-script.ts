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
 */
export const playerScript = `(function () {
  'use strict';
  var video = document.getElementById('player');
  var stream = video && video.getAttribute('data-hls');
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
})();
`;

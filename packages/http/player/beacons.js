/**
 * The player page's analytics script, served at `/static/player/beacons.js` (deferred, beside the
 * player's own script, which it does not touch). The page names the beacon endpoint in its body's
 * `data-beacons` only when the viewer may be counted (no `dnt=1`, no `DNT: 1` or `Sec-GPC: 1`:
 * core decides); without it the script does nothing. It listens to `<video id="player">` and
 * sends, with `navigator.sendBeacon` (form-encoded, so no preflight):
 *
 * - `impression` when the page loads;
 * - `view` when playback starts, again after an end (the server counts one per viewer per half hour);
 * - `progress` with the seconds of video played since the last one (seeks excluded), every
 *   10 s of playing and whenever playback pauses, ends or the page is hidden, so none is lost;
 * - `finish` when the video ends.
 *
 * Each carries `embed_domain`: the embedding page's origin (`location.ancestorOrigins`, else the
 * referrer) when the player is framed; the server falls back to the beacon's Referer.
 */
(function () {
  'use strict';
  var endpoint = document.body.getAttribute('data-beacons');
  var video = document.getElementById('player');
  if (!endpoint || !video || !navigator.sendBeacon) return;
  var framed = window.top !== window;
  var ancestors = location.ancestorOrigins;
  var embed = framed ? (ancestors && ancestors.length ? ancestors[0] : document.referrer) : '';
  function send(type, extra) {
    var body = new URLSearchParams({ type: type, embed_domain: embed || '' });
    for (var k in extra) body.set(k, extra[k]);
    navigator.sendBeacon(endpoint, body);
  }
  var viewed = false;
  var watched = 0;
  var last = null;
  function flush() {
    if (watched > 0) send('progress', { seconds: String(Math.round(watched * 1000) / 1000) });
    watched = 0;
  }
  send('impression');
  video.addEventListener('playing', function () {
    last = video.currentTime;
    if (!viewed) send('view');
    viewed = true;
  });
  video.addEventListener('timeupdate', function () {
    var now = video.currentTime;
    // Time played: the media clock moving forward in small steps (a seek jumps, and is not watched).
    if (last !== null && !video.seeking && now > last && now - last < 2 * Math.max(1, video.playbackRate)) watched += now - last;
    last = now;
    if (watched >= 10) flush();
  });
  video.addEventListener('seeking', function () { last = null; });
  video.addEventListener('seeked', function () { last = video.currentTime; });
  video.addEventListener('pause', function () {
    // The last stretch up to the pause (timeupdate may not have fired since).
    if (last !== null && video.currentTime > last && video.currentTime - last < 2) watched += video.currentTime - last;
    last = null;
    flush();
  });
  video.addEventListener('ended', function () {
    flush();
    send('finish');
    viewed = false;
  });
  document.addEventListener('visibilitychange', function () { if (document.visibilityState === 'hidden') flush(); });
})();

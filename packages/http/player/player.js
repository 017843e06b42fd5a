/*
 * The player page's own script, served at `/static/player/player.js` after hls.js and before
 * protocol.js (all deferred, in that order). The page works without it as a plain <video>.
 *
 * Playback: the master playlist in the video's `data-hls` plays
 * - natively where the browser plays HLS well: Safari, known by ManagedMediaSource, and a browser
 *   with no MediaSource at all (iPhone before iOS 17.1). Chromium also answers "maybe" to the HLS
 *   type but plays fewer streams than hls.js (hls.js's README says as much), so it gets hls.js;
 * - elsewhere through hls.js over MediaSource, capped to the player's size and starting from the
 *   rung the browser's measured bandwidth (navigator.connection) affords rather than hls.js's
 *   cautious default; a fatal error falls back to the progressive `src`;
 * - with neither (or hls.js blocked), the progressive `src` stays.
 * Like the page's `preload="none"`, nothing is fetched before the viewer plays. The <track>s are
 * the page's: hls.js touches only text tracks it made itself.
 *
 * The embed URL's options arrive as data attributes (the server reads the query; `#t=` only the
 * script sees). The player's own controls (a settings menu: quality, captions, speed, chapters,
 * download; chapter marks over the seek bar) and keyboard shortcuts sit beside the browser's.
 *
 * What protocol.js needs is `window.reelbasePlayer`; what it reports beyond the media events
 * comes as `reelbase:*` events on the <video> (qualitychange, texttrackchange, chapterchange).
 */
(function () {
  'use strict';
  var video = document.getElementById('player');
  if (!video) return;
  var root = video.parentNode;
  var data = function (name) { return video.getAttribute('data-' + name); };
  var emit = function (name, detail) { video.dispatchEvent(new CustomEvent('reelbase:' + name, { detail: detail })); };
  var speeds = [0.5, 0.75, 1, 1.25, 1.5, 2];
  var hls = null;
  /** The rungs, largest first, as the server named them (`360p`). */
  var rungs = (data('qualities') || '').split(' ').filter(Boolean);
  /** The quality asked for (`auto` or a rung), applied once hls.js knows its levels. */
  var wanted = rungs.indexOf(data('quality')) >= 0 ? data('quality') : 'auto';
  var chapters = JSON.parse(data('chapters') || '[]').map(function (c, i) { return { startTime: c[0], title: c[1], index: i + 1 }; });
  var hashTime = /[#&]t=([\dhms.]+)/.exec(location.hash);
  var start = hashTime ? seconds(hashTime[1]) : Number(data('start')) || 0;

  /** `90`, `90s`, `1m30s` or `1h2m3s` in seconds (0 when not a time). */
  function seconds(text) {
    var m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s?)?$/.exec(text);
    return m ? (+m[1] || 0) * 3600 + (+m[2] || 0) * 60 + (+m[3] || 0) : 0;
  }

  var player = (window.reelbasePlayer = {
    video: video,
    id: document.body.getAttribute('data-video-id'),
    title: data('video-title') || document.title,
    url: data('video-url'),
    color: document.body.getAttribute('data-color'),
    autopause: data('autopause') !== '0',
    /** The video's length: the element's once known, the server's before. */
    duration: function () { return isFinite(video.duration) && video.duration > 0 ? video.duration : Number(data('duration')) || 0; },
    qualities: function () {
      var current = player.quality();
      return ['auto'].concat(hls ? rungs : []).map(function (id) {
        return { label: id === 'auto' ? 'Auto' : id, id: id, active: id === current };
      });
    },
    quality: function () { return hls ? wanted : 'auto'; },
    /** Switches to `id` (`auto` or a rung); false when there is no such quality here. */
    setQuality: function (id) {
      if (id !== 'auto' && (!hls || rungs.indexOf(id) < 0)) return false;
      if (id === wanted) return true;
      wanted = id;
      if (hls && hls.levels && hls.levels.length) hls.currentLevel = levelOf(id);
      emit('qualitychange', { quality: id });
      render();
      return true;
    },
    textTracks: function () {
      return list(video.textTracks).filter(textual).map(function (t) {
        return { label: t.label, language: t.language, kind: t.kind, mode: t.mode };
      });
    },
    /** Shows the track of `language` (and `kind`, when given); false when there is none. */
    enableTextTrack: function (language, kind, showing) {
      var found = list(video.textTracks).filter(function (t) { return textual(t) && t.language === language && (!kind || t.kind === kind); })[0];
      if (!found) return false;
      showTrack(found, showing === false ? 'hidden' : 'showing');
      return true;
    },
    disableTextTrack: function () { showTrack(null); },
    chapters: chapters,
    currentChapter: function () {
      var t = video.currentTime;
      return chapters.filter(function (c) { return c.startTime <= t; }).pop() || null;
    },
  });

  function list(tracks) { return Array.prototype.slice.call(tracks); }
  function textual(t) { return t.kind === 'captions' || t.kind === 'subtitles'; }

  /** Shows `track` (in `mode`) and no other captions; null turns captions off. */
  function showTrack(track, mode) {
    list(video.textTracks).filter(textual).forEach(function (t) { if (t !== track) t.mode = 'disabled'; });
    if (track) track.mode = mode || 'showing';
    emit('texttrackchange', track ? { label: track.label, language: track.language, kind: track.kind } : { label: null, language: null, kind: null });
    render();
  }

  /** The hls.js level of a rung (-1, its automatic choice, for `auto`). */
  function levelOf(id) {
    if (id === 'auto' || !hls) return -1;
    var levels = hls.levels || [];
    for (var i = 0; i < levels.length; i++) if (Math.min(levels[i].width, levels[i].height) + 'p' === id) return i;
    return -1;
  }

  // The URL's texttrack: that language's captions instead of the page's default ones.
  if (data('texttrack')) player.enableTextTrack(data('texttrack'));

  var board = data('storyboard');
  var box = document.querySelector('.storyboard');
  if (board && box) storyboard(board, box);

  // An album's player goes on to its next video at the end, and that page plays at once.
  var next = data('next');
  if (next) video.addEventListener('ended', function () { location.href = next; });
  if (start > 0) startAt(start);
  stream();
  if (location.hash === '#play' || data('autoplay') === '1') video.play().catch(function () {});

  /** Starts playback at `t`: where the stream loads from, and wherever metadata arrives first. */
  function startAt(t) {
    var seek = function () { if (video.currentTime < t && (!video.duration || t < video.duration)) video.currentTime = t; };
    video.addEventListener('loadedmetadata', seek, { once: true });
    if (video.readyState > 0) seek();
  }

  function stream() {
    var stream = data('hls');
    // The viewer may have started the progressive file before this ran: leave it playing.
    if (!stream || !video.paused || video.readyState > 0) return;
    var progressive = video.getAttribute('src');
    var native = video.canPlayType('application/vnd.apple.mpegurl') !== '';
    if (native && ('ManagedMediaSource' in window || !('MediaSource' in window))) {
      video.src = stream + (start ? '#t=' + start : '');
      return;
    }
    var Hls = window.Hls;
    if (!Hls || !Hls.isSupported()) return;
    // The browser's own measure of the link (Mbit/s) instead of hls.js's 500 kbit/s guess, so a
    // fast link starts at the rung the player's size allows.
    var link = navigator.connection && navigator.connection.downlink;
    hls = new Hls({ capLevelToPlayerSize: true, abrEwmaDefaultEstimate: link ? link * 1e6 : 5e6, startPosition: start || -1 });
    hls.on(Hls.Events.MANIFEST_PARSED, function () {
      if (wanted !== 'auto') hls.currentLevel = levelOf(wanted);
    });
    hls.on(Hls.Events.ERROR, function (event, data) {
      if (!data.fatal || !hls) return;
      var playing = !video.paused;
      hls.destroy();
      hls = null;
      video.src = progressive;
      if (playing) video.play().catch(function () {});
      render();
    });
    hls.attachMedia(video);
    video.addEventListener('play', function () {
      if (hls) hls.loadSource(stream);
    }, { once: true });
  }

  // The chapter the playhead is in, announced when it changes.
  var chapter = null;
  video.addEventListener('timeupdate', function () {
    var now = player.currentChapter();
    if (now !== chapter) {
      chapter = now;
      if (now) emit('chapterchange', now);
    }
  });

  // Autopause: another reelbase player of this origin that starts pauses this one.
  var channel = 'BroadcastChannel' in window ? new BroadcastChannel('reelbase-player') : null;
  if (channel) {
    var me = Math.random();
    video.addEventListener('play', function () { channel.postMessage(me); });
    channel.onmessage = function (e) { if (e.data !== me && player.autopause && !video.paused) video.pause(); };
  }

  // The player takes the keyboard once the frame has focus: on load, and on any click in it.
  if (root.focus) {
    root.focus({ preventScroll: true });
    root.addEventListener('pointerdown', function () { root.focus({ preventScroll: true }); });
  }
  if (data('keyboard') !== '0') window.addEventListener('keydown', keyboard, true);

  function keyboard(e) {
    // A key with a modifier is the browser's; space or enter on a menu button presses it.
    if (e.ctrlKey || e.metaKey || e.altKey || (e.target && e.target.closest && e.target.closest('button, a, input'))) return;
    var d = video.duration || 0;
    var seekBy = function (s) { video.currentTime = Math.max(0, Math.min(d || Infinity, video.currentTime + s)); };
    var rate = function (step) {
      var i = speeds.indexOf(video.playbackRate);
      video.playbackRate = speeds[Math.max(0, Math.min(speeds.length - 1, (i < 0 ? 2 : i) + step))];
    };
    var actions = {
      ' ': toggle, k: toggle,
      ArrowLeft: function () { seekBy(-5); }, ArrowRight: function () { seekBy(5); },
      j: function () { seekBy(-10); }, l: function () { seekBy(10); },
      ArrowUp: function () { video.muted = false; video.volume = Math.min(1, Math.round(video.volume * 10 + 1) / 10); },
      ArrowDown: function () { video.volume = Math.max(0, Math.round(video.volume * 10 - 1) / 10); },
      m: function () { video.muted = !video.muted; },
      f: function () { if (document.fullscreenElement) document.exitFullscreen(); else if (root.requestFullscreen) root.requestFullscreen().catch(function () {}); },
      c: function () {
        var tracks = list(video.textTracks).filter(textual);
        var on = tracks.filter(function (t) { return t.mode === 'showing'; })[0];
        showTrack(on ? null : tracks[0] || null);
      },
      '<': function () { rate(-1); }, '>': function () { rate(1); },
    };
    var action = actions[e.key] || (/^[0-9]$/.test(e.key) && d ? function () { video.currentTime = (d * +e.key) / 10; } : null);
    if (!action) return;
    // The browser's own handling (arrows moving 0.1 s, space on a focused button) does not run too.
    e.preventDefault();
    e.stopPropagation();
    action();
  }

  function toggle() {
    if (video.paused || video.ended) video.play().catch(function () {});
    else video.pause();
  }

  // The player's own controls: a settings button with its menu, and chapter marks on the seek bar.
  var menu = null;
  var marks = null;
  if (data('controls') !== '0') controls();

  function controls() {
    var panel = element('div', 'settings');
    var button = element('button', '', 'Settings');
    button.type = 'button';
    button.setAttribute('aria-haspopup', 'true');
    button.setAttribute('aria-expanded', 'false');
    menu = element('div', 'menu');
    menu.hidden = true;
    menu.setAttribute('role', 'menu');
    button.addEventListener('click', function () {
      menu.hidden = !menu.hidden;
      button.setAttribute('aria-expanded', String(!menu.hidden));
      render();
    });
    panel.appendChild(menu);
    panel.appendChild(button);
    root.appendChild(panel);
    if (chapters.length) {
      marks = element('div', 'marks');
      root.appendChild(marks);
      var place = function () {
        marks.textContent = '';
        var duration = player.duration();
        if (!(duration > 0)) return;
        chapters.forEach(function (c) {
          if (!c.startTime) return;
          var mark = element('span');
          mark.style.left = (100 * c.startTime) / duration + '%';
          mark.title = c.title;
          marks.appendChild(mark);
        });
      };
      video.addEventListener('durationchange', place);
      place();
    }
    ['ratechange', 'durationchange'].forEach(function (name) { video.addEventListener(name, render); });
  }

  function element(tag, cls, text) {
    var el = document.createElement(tag);
    if (cls) el.className = cls;
    if (text) el.textContent = text;
    return el;
  }

  /** The menu's sections, drawn again whenever what they show changes (while it is open). */
  function render() {
    if (!menu || menu.hidden) return;
    menu.textContent = '';
    var section = function (name, items) {
      if (!items.length) return;
      var s = element('section');
      s.setAttribute('aria-label', name);
      s.appendChild(element('h2', '', name));
      items.forEach(function (item) {
        var b = item.href ? element('a', '', item.label) : element('button', '', item.label);
        if (item.href) {
          b.href = item.href;
          b.setAttribute('download', '');
        } else {
          b.type = 'button';
          b.setAttribute('role', 'menuitemradio');
          b.setAttribute('aria-checked', String(!!item.checked));
          b.addEventListener('click', function () { item.pick(); render(); });
        }
        s.appendChild(b);
      });
      menu.appendChild(s);
    };
    section('Quality', player.qualities().map(function (q) {
      return { label: q.label, checked: q.active, pick: function () { player.setQuality(q.id); } };
    }));
    var tracks = list(video.textTracks).filter(textual);
    section('Captions', tracks.length ? [{ label: 'Off', checked: !tracks.some(function (t) { return t.mode === 'showing'; }), pick: function () { showTrack(null); } }].concat(
      tracks.map(function (t) { return { label: t.label || t.language, checked: t.mode === 'showing', pick: function () { showTrack(t); } }; })) : []);
    if (data('speed') !== '0') {
      section('Speed', speeds.map(function (s) {
        return { label: s === 1 ? 'Normal' : s + '×', checked: video.playbackRate === s, pick: function () { video.playbackRate = s; } };
      }));
    }
    var current = player.currentChapter();
    section('Chapters', chapters.map(function (c) {
      return { label: c.title, checked: c === current, pick: function () { video.currentTime = c.startTime; } };
    }));
    if (data('download')) section('Download', [{ label: 'Download', href: data('download') }]);
  }

  /**
   * With a storyboard (`data-storyboard`, a WebVTT file of `sheet.jpg#xywh=x,y,w,h` cues), the
   * pointer over the seek bar shows the tile of the time under it, in the page's `.storyboard`
   * box; the file is fetched when the pointer first comes there.
   */
  function storyboard(board, box) {
    var cues = null;
    var stamp = function (text) {
      var parts = text.split(':').map(Number);
      return parts.reduce(function (sum, part) { return sum * 60 + part; }, 0);
    };
    var last = null;
    var load = function () {
      cues = [];
      fetch(board).then(function (r) { return r.text(); }).then(function (text) {
        var found = /(\S+) --> (\S+)\n(\S+)#xywh=(\d+),(\d+),(\d+),(\d+)/g;
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
      // Only over the seek bar (the browser's bottom 32 px): the row of buttons above it (volume,
      // fullscreen, its menu) shows no tile, and the tile sits above that row (the page's style).
      if (rect.bottom - e.clientY > 32) { box.hidden = true; return; }
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
})();

/**
 * @reelbase/player-api: drive a reelbase player (`/videos/{id}/player` in an iframe) from the page
 * that embeds it, with `@vimeo/player`'s class API. `@vimeo/player` talks only to the hosted
 * player's own hosts; this talks to the origin of the iframe it is given (or `options.origin`),
 * and takes messages only from that frame at that origin.
 *
 * The wire is the player.js protocol the player page answers (its protocol.js): `{method, value}`
 * out, `{method, value}` back (matched to calls by method, in order), `{event, data}` for
 * subscribed events, `{event: "error", data: {method, name, message}}` for a failed call.
 *
 * Plain browser ESM, no build step: `import Player from '@reelbase/player-api'`.
 */

/** The getters and setters, as `get<Name>()` / `set<Name>(value)` methods. */
const getters = [
  'Autopause', 'Buffered', 'Chapters', 'Color', 'CurrentChapter', 'CurrentTime', 'Duration', 'Ended', 'Fullscreen', 'Loop', 'Muted', 'Paused',
  'PlaybackRate', 'Played', 'Qualities', 'Quality', 'Seekable', 'Seeking', 'TextTracks', 'VideoHeight', 'VideoId', 'VideoTitle',
  'VideoUrl', 'VideoWidth', 'Volume',
];
const setters = ['Autopause', 'CurrentTime', 'Loop', 'Muted', 'PlaybackRate', 'Quality', 'Volume'];

export default class Player {
  /**
   * @param {HTMLIFrameElement | HTMLElement | string} element The player's iframe, an element holding
   *   one, or its id; or an element to put a new iframe in, at `options.url`.
   * @param {{ origin?: string, url?: string, width?: number, height?: number }} [options]
   */
  constructor(element, options = {}) {
    const found = typeof element === 'string' ? document.getElementById(element) : element;
    if (!found || typeof found.nodeName !== 'string') throw new TypeError('You must pass either a valid element or a valid id.');
    let frame = found.nodeName === 'IFRAME' ? found : found.querySelector('iframe');
    if (!frame) {
      if (!options.url) throw new TypeError('The element holds no player iframe, and no options.url was given to make one.');
      frame = document.createElement('iframe');
      frame.src = options.url;
      frame.width = String(options.width ?? 640);
      frame.height = String(options.height ?? 360);
      frame.allow = 'autoplay; fullscreen; picture-in-picture';
      frame.setAttribute('allowfullscreen', '');
      found.appendChild(frame);
    }
    /** @type {HTMLIFrameElement} */
    this.element = frame;
    this.origin = new URL(options.origin ?? frame.src, document.baseURI).origin;
    /** @type {Map<string, {resolve: (v: unknown) => void, reject: (e: Error) => void}[]>} */
    this._calls = new Map();
    /** @type {Map<string, Set<(data: unknown) => void>>} */
    this._listeners = new Map();
    this._ready = new Promise((resolve) => {
      this._onReady = resolve;
    });
    this._onMessage = (e) => {
      if (e.source !== this.element.contentWindow || e.origin !== this.origin) return;
      let data = e.data;
      if (typeof data === 'string') {
        try {
          data = JSON.parse(data);
        } catch {
          return;
        }
      }
      if (data) this._receive(data);
    };
    window.addEventListener('message', this._onMessage);
    // A player that was ready before this object existed answers the ping instead.
    this._post('ping');
    frame.addEventListener('load', () => this._post('ping'));
  }

  /** @param {{event?: string, data?: any, method?: string, value?: unknown}} data */
  _receive(data) {
    if (data.event === 'ready' || data.method === 'ping') {
      this._onReady();
      return;
    }
    if (data.event === 'error' && data.data && data.data.method) {
      const waiting = this._calls.get(data.data.method);
      const call = waiting && waiting.shift();
      if (call) {
        const error = new Error(data.data.message);
        error.name = data.data.name;
        call.reject(error);
      }
    }
    if (data.event) {
      for (const listener of this._listeners.get(data.event) ?? []) listener.call(this, data.data);
      return;
    }
    if (data.method) this._calls.get(data.method)?.shift()?.resolve(data.value);
  }

  _post(method, value) {
    const message = value === undefined ? { method } : { method, value };
    this.element.contentWindow?.postMessage(message, this.origin);
  }

  /** Resolves once the player can take calls. */
  ready() {
    return this._ready;
  }

  /**
   * Calls `method` on the player with `value`: resolves with its answer, rejects with its error.
   * @returns {Promise<any>}
   */
  callMethod(method, value) {
    return this._ready.then(
      () =>
        new Promise((resolve, reject) => {
          if (!this._calls.has(method)) this._calls.set(method, []);
          this._calls.get(method).push({ resolve, reject });
          this._post(method, value);
        }),
    );
  }

  /** Calls `callback` with each `eventName` event's data. */
  on(eventName, callback) {
    if (!eventName) throw new TypeError('You must pass an event name.');
    if (typeof callback !== 'function') throw new TypeError('The callback must be a function.');
    let set = this._listeners.get(eventName);
    if (!set) {
      set = new Set();
      this._listeners.set(eventName, set);
      this.callMethod('addEventListener', eventName).catch(() => {});
    }
    set.add(callback);
  }

  /** Stops calling `callback` (every callback, without one) for `eventName`. */
  off(eventName, callback) {
    const set = this._listeners.get(eventName);
    if (!set) return;
    if (callback) set.delete(callback);
    else set.clear();
    if (set.size === 0) {
      this._listeners.delete(eventName);
      this.callMethod('removeEventListener', eventName).catch(() => {});
    }
  }

  play() {
    return this.callMethod('play');
  }

  pause() {
    return this.callMethod('pause');
  }

  enableTextTrack(language, kind = null, showing = true) {
    if (!language) return Promise.reject(new TypeError('You must pass a language.'));
    return this.callMethod('enableTextTrack', { language, kind, showing });
  }

  disableTextTrack() {
    return this.callMethod('disableTextTrack');
  }

  requestFullscreen() {
    return this.element.requestFullscreen();
  }

  exitFullscreen() {
    return document.exitFullscreen();
  }

  /** Stops listening, fails the calls still waiting and removes the iframe. */
  destroy() {
    window.removeEventListener('message', this._onMessage);
    for (const [method, calls] of this._calls) {
      for (const call of calls) call.reject(Object.assign(new Error(`The player was destroyed before ${method} answered.`), { name: 'PlayerDestroyedError' }));
    }
    this._calls.clear();
    this._listeners.clear();
    this.element.remove();
    return Promise.resolve();
  }
}

for (const name of getters) {
  Player.prototype[`get${name}`] = function () {
    return this.callMethod(`get${name}`);
  };
}
for (const name of setters) {
  Player.prototype[`set${name}`] = function (value) {
    if (value === undefined || value === null) return Promise.reject(new TypeError('There must be a value to set.'));
    return this.callMethod(`set${name}`, value);
  };
}

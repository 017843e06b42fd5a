/** A time event's data (`play`, `pause`, `ended`, `timeupdate`, `progress`, `seeking`, `seeked`). */
export interface TimingData {
  seconds: number;
  percent: number;
  duration: number;
}
export interface Quality {
  id: string;
  label: string;
  active: boolean;
}
export interface TextTrack {
  label: string;
  language: string;
  kind: string;
  mode: 'disabled' | 'hidden' | 'showing';
}
export interface Chapter {
  startTime: number;
  title: string;
  index: number;
}
export interface PlayerOptions {
  /** The reelbase server's origin, when it is not the iframe's `src`'s. */
  origin?: string;
  /** The player URL to make an iframe of, when the element holds none. */
  url?: string;
  width?: number;
  height?: number;
}

/** A reelbase player in an iframe, driven over the player.js protocol (`@vimeo/player`'s API). */
export default class Player {
  constructor(element: HTMLIFrameElement | HTMLElement | string, options?: PlayerOptions);
  readonly element: HTMLIFrameElement;
  readonly origin: string;
  ready(): Promise<void>;
  callMethod(method: string, value?: unknown): Promise<unknown>;
  on(eventName: string, callback: (data: unknown) => void): void;
  off(eventName: string, callback?: (data: unknown) => void): void;
  destroy(): Promise<void>;
  play(): Promise<void>;
  pause(): Promise<void>;
  requestFullscreen(): Promise<void>;
  exitFullscreen(): Promise<void>;
  enableTextTrack(language: string, kind?: string | null, showing?: boolean): Promise<TextTrack>;
  disableTextTrack(): Promise<void>;
  getAutopause(): Promise<boolean>;
  setAutopause(autopause: boolean): Promise<boolean>;
  getBuffered(): Promise<[number, number][]>;
  getChapters(): Promise<Chapter[]>;
  getColor(): Promise<string>;
  getCurrentChapter(): Promise<Chapter | null>;
  getCurrentTime(): Promise<number>;
  setCurrentTime(seconds: number): Promise<number>;
  getDuration(): Promise<number>;
  getEnded(): Promise<boolean>;
  getLoop(): Promise<boolean>;
  setLoop(loop: boolean): Promise<boolean>;
  getMuted(): Promise<boolean>;
  setMuted(muted: boolean): Promise<boolean>;
  getPaused(): Promise<boolean>;
  getPlaybackRate(): Promise<number>;
  setPlaybackRate(rate: number): Promise<number>;
  getPlayed(): Promise<[number, number][]>;
  getQualities(): Promise<Quality[]>;
  getQuality(): Promise<string>;
  setQuality(quality: string): Promise<string>;
  getSeekable(): Promise<[number, number][]>;
  getSeeking(): Promise<boolean>;
  /** Whether the player (inside its iframe) is fullscreen. */
  getFullscreen(): Promise<boolean>;
  getTextTracks(): Promise<TextTrack[]>;
  getVideoHeight(): Promise<number>;
  getVideoId(): Promise<number | string>;
  getVideoTitle(): Promise<string>;
  getVideoUrl(): Promise<string>;
  getVideoWidth(): Promise<number>;
  getVolume(): Promise<number>;
  setVolume(volume: number): Promise<number>;
}

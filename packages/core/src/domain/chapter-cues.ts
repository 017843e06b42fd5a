import { invalidField } from '../engine/errors';
import type { Store } from '../store/store';
import type { VideoRecord } from '../records';
import type { ChapterRecord } from '../records/chapter';
import { chaptersOf } from './chapters';

/** A chapter as a WebVTT cue gives it: where it starts and its title. */
export interface ChapterCue {
  timecode: number;
  title: string;
}

const timing = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})[ \t]+-->/;
const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&nbsp;': '\u00a0', '&lrm;': '\u200e', '&rlm;': '\u200f' };

/**
 * The chapters a WebVTT file (already checked and normalised: LF line ends) holds: one per cue, at
 * its start, titled by its text on one line with tags dropped and entities read. 400 naming `file`
 * for a cue without text, beyond the video's end (when known), or starting where another does.
 */
export function chapterCues(vtt: string, duration: number): ChapterCue[] {
  const cues: ChapterCue[] = [];
  for (const block of vtt.split(/\n{2,}/)) {
    const lines = block.split('\n');
    const at = lines.findIndex((line) => timing.test(line.trim()));
    if (at < 0) continue;
    const [, h = '0', m, s, ms] = timing.exec(lines[at].trim())!;
    const timecode = Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000;
    const title = lines
      .slice(at + 1)
      .join(' ')
      .replace(/<[^>]*>/g, '')
      .replace(/&(?:amp|lt|gt|nbsp|lrm|rlm);/g, (e) => entities[e])
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 256);
    const n = cues.length + 1;
    if (!title) throw invalidField('file', `cue ${n} has no text to be the chapter's title`);
    if (duration > 0 && timecode >= duration) throw invalidField('file', `cue ${n} starts at ${timecode} seconds, not before the end of the video (${duration} seconds)`);
    if (cues.some((c) => c.timecode === timecode)) throw invalidField('file', `cue ${n} starts at ${timecode} seconds, as an earlier cue does`);
    cues.push({ timecode, title });
  }
  return cues;
}

/** Makes `cues` the video's chapters: the chapters at their timecodes keep their ids, the others go or come. */
export async function replaceChapters(store: Store, video: VideoRecord, cues: readonly ChapterCue[], now: string): Promise<void> {
  const { items } = await chaptersOf(store, video.id);
  const byTime = new Map(cues.map((c) => [c.timecode, c]));
  for (const old of items) {
    const cue = byTime.get(old.timecode);
    if (!cue) await store.delete('chapters', old.id);
    else if (cue.title !== old.title) await store.update<ChapterRecord>('chapters', old.id, { title: cue.title, modified_time: now });
    byTime.delete(old.timecode);
  }
  for (const cue of byTime.values()) await store.insert<ChapterRecord>('chapters', { video_id: video.id, ...cue, created_time: now, modified_time: now });
}

import { MediaInputError } from './errors';

function reject(why: string): never {
  throw new MediaInputError(`Captions must be WebVTT (.vtt) or SRT (.srt); ${why}.`);
}

/** `hh:mm:ss.ttt` or `mm:ss.ttt`, as WebVTT allows. */
const vttTime = String.raw`(?:\d{2,}:)?[0-5]\d:[0-5]\d\.\d{3}`;
const vttTiming = new RegExp(`^${vttTime}[ \\t]+-->[ \\t]+${vttTime}(?:[ \\t].*)?$`);
/** SRT writes a comma before the milliseconds; some writers use a dot or a one-digit hour. */
const srtTiming = /^(\d+):([0-5]\d):([0-5]\d)[,.](\d{3})[ \t]+-->[ \t]+(\d+):([0-5]\d):([0-5]\d)[,.](\d{3})(?:[ \t].*)?$/;

/** WebVTT text (LF line ends, trailing newline) from the bytes of a WebVTT or SRT file. */
export function toWebVtt(bytes: Uint8Array): string {
  if (bytes.length === 0) reject('the file is empty');
  let text = '';
  try {
    // The decoder drops a leading BOM.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    reject('the file is not UTF-8 text');
  }
  if (/[\0-\x08\x0e-\x1f]/.test(text)) reject('the file is binary');
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  return /^WEBVTT(?:[ \t]|$)/.test(lines[0]) ? checkVtt(lines) : srtToVtt(lines);
}

function checkVtt(lines: string[]): string {
  // A line with `-->` can only be a cue's timings (cue text may not contain it).
  const bad = lines.findIndex((line) => line.includes('-->') && !vttTiming.test(line.trim()));
  if (bad >= 0) reject(`line ${bad + 1} is not a valid cue timing`);
  return lines.join('\n').replace(/\n*$/, '\n');
}

function srtToVtt(lines: string[]): string {
  const cues: string[] = [];
  let i = 0;
  const blank = () => i < lines.length && lines[i].trim() === '';
  while (i < lines.length) {
    while (blank()) i++;
    if (i === lines.length) break;
    if (/^\d+$/.test(lines[i].trim())) i++;
    const line = lines[i] ?? '';
    const timing = srtTiming.exec(line.trim());
    if (!timing) {
      if (line.includes('-->')) reject(`line ${i + 1} is not a valid cue timing`);
      reject(cues.length ? `line ${i + 1} is outside any cue` : 'this file has neither a WEBVTT header nor SRT cues');
    }
    const [, h1, m1, s1, ms1, h2, m2, s2, ms2] = timing;
    const cue = [`${h1.padStart(2, '0')}:${m1}:${s1}.${ms1} --> ${h2.padStart(2, '0')}:${m2}:${s2}.${ms2}`];
    for (i++; i < lines.length && !blank(); i++) cue.push(lines[i].trimEnd().replaceAll('-->', '--&gt;'));
    cues.push(cue.join('\n'));
  }
  if (cues.length === 0) reject('this file has neither a WEBVTT header nor SRT cues');
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

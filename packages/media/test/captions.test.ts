import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { createMediaTools, MediaInputError } from '../src/index';

const { toWebVtt } = createMediaTools();
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('toWebVtt', () => {
  it('converts SRT: BOM, CRLF, trailing spaces, several lines, markup, no final blank line', () => {
    const srt =
      '\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\nHello\r\n\r\n' +
      '2 \r\n00:01:02,500 --> 00:01:04,000  \r\nTwo lines \r\nof text\r\n\r\n\r\n' +
      '3\r\n01:00:00,000 --> 01:00:01,250\r\n<i>Whispered</i>';
    assert.equal(
      toWebVtt(utf8(srt)),
      'WEBVTT\n\n' +
        '00:00:01.000 --> 00:00:02.500\nHello\n\n' +
        '00:01:02.500 --> 00:01:04.000\nTwo lines\nof text\n\n' +
        '01:00:00.000 --> 01:00:01.250\n<i>Whispered</i>\n',
    );
  });

  it('keeps SRT cues without counters, in file order, and escapes an arrow in text', () => {
    const srt = '00:00:05,000 --> 00:00:06,000\nlater\n\n0:00:01,000 --> 0:00:02,000 X1:10 X2:20\nearlier --> sooner\n';
    assert.equal(toWebVtt(utf8(srt)), 'WEBVTT\n\n00:00:05.000 --> 00:00:06.000\nlater\n\n00:00:01.000 --> 00:00:02.000\nearlier --&gt; sooner\n');
  });

  it('passes WebVTT through with LF line ends', () => {
    const vtt = '\uFEFFWEBVTT - Title\r\n\r\nNOTE hi\r\n\r\nintro\r\n00:01.000 --> 00:02.000 align:start\r\nHi\r\n\r\n\r\n';
    assert.equal(toWebVtt(utf8(vtt)), 'WEBVTT - Title\n\nNOTE hi\n\nintro\n00:01.000 --> 00:02.000 align:start\nHi\n');
    assert.equal(toWebVtt(utf8('WEBVTT')), 'WEBVTT\n');
  });

  const rejected: [string, () => Promise<Uint8Array> | Uint8Array, string][] = [
    ['empty bytes', () => new Uint8Array(), 'the file is empty'],
    ['a PNG', () => sharp({ create: { width: 4, height: 4, channels: 3, background: 'red' } }).png().toBuffer(), 'the file is not UTF-8 text'],
    ['Latin-1 text', () => Uint8Array.from([0x31, 0x0a, 0x63, 0x61, 0x66, 0xe9, 0x0a]), 'the file is not UTF-8 text'],
    ['control characters', () => utf8('WEBVTT\n\n\0\x01\x02'), 'the file is binary'],
    ['plain text', () => utf8('hello world\n'), 'this file has neither a WEBVTT header nor SRT cues'],
    ['only blank lines', () => utf8('\r\n \r\n'), 'this file has neither a WEBVTT header nor SRT cues'],
    ['an SRT with a malformed timing line', () => utf8('1\n00:00:01,000 --> 00:00:02,500\nHi\n\n2\n00:00:03 --> 00:00:04,000\nThere\n'), 'line 6 is not a valid cue timing'],
    ['an SRT with text outside a cue', () => utf8('1\n00:00:01,000 --> 00:00:02,500\nHi\n\nstray\n'), 'line 5 is outside any cue'],
    ['a WebVTT with a malformed timing line', () => utf8('WEBVTT\n\n00:01.000 --> 2s\nHi\n'), 'line 3 is not a valid cue timing'],
  ];
  for (const [name, bytes, why] of rejected) {
    it(`rejects ${name}`, async () => {
      const input = await bytes();
      assert.throws(() => toWebVtt(input), (error) => {
        assert.ok(error instanceof MediaInputError);
        assert.equal(error.message, `Captions must be WebVTT (.vtt) or SRT (.srt); ${why}.`);
        return true;
      });
    });
  }
});

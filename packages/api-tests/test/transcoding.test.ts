import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { execFile } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eq, queueRepackaging, transcodeKind, type VideoRecord } from '@reelbase/core';
import { resolveFfmpeg } from '@reelbase/media';
import { createTusVideo, decodes, drivers, fetchBytes, filesUnder, Harness, makeClip, probeBytes, sendByTus, uploadByTus, type Fixture } from '../src/index';

const run = promisify(execFile);

type Progressive = { type: string; codec: string; width: number; height: number; fps: number; size: number; link: string; rendition: string; link_expiration_time: string };
type Play = { status: string; progressive: Progressive[]; hls: { link: string; link_expiration_time: string } | null; storyboard: { link: string; link_expiration_time: string } | null };

const videoFiles = (h: Harness, id: string) => filesUnder(h.filesDir).filter((f) => f.startsWith(`videos/${id}/`) || f.startsWith(`media/video/${id}/`));

/** The variants of a master playlist: attributes and URI. */
function variants(master: string): { attrs: Record<string, string>; uri: string }[] {
  const lines = master.split('\n');
  return lines.flatMap((line, i) => {
    if (!line.startsWith('#EXT-X-STREAM-INF:')) return [];
    const attrs = Object.fromEntries([...line.slice(18).matchAll(/([A-Z-]+)=("[^"]*"|[^,]*)/g)].map((m) => [m[1], m[2].replace(/"/g, '')]));
    return [{ attrs, uri: lines[i + 1] }];
  });
}

for (const driver of drivers) {
  describe(`transcoding: states and the durable queue (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
    });
    after(() => h.stop());

    it('uploading → transcode_starting (queued with the upload) → available once a worker ran the job; play appears', async () => {
      const clip = await makeClip({ width: 320, height: 240, seconds: 2 });
      const { id, link } = await createTusVideo(h, alice.token, clip.length);
      const read = async () => (await h.call('GET', `/videos/${id}`, { token: alice.token })).body;
      assert.deepEqual([(await read()).status, (await read()).transcode.status], ['uploading', 'in_progress']);
      await sendByTus(link, clip);
      const queued = await read();
      assert.deepEqual([queued.status, queued.transcode.status, queued.play.status, queued.play.progressive], ['transcode_starting', 'in_progress', 'unavailable', []]);
      // Beside the job that gives the upload up if its link expires unfinished (due then, not now).
      assert.equal(await h.service.store.count('jobs', eq('kind', transcodeKind)), 1, 'the job was queued with the upload');
      assert.equal(await h.settle(), 1);
      const done = await read();
      assert.deepEqual([done.status, done.transcode.status, done.play.status], ['available', 'complete', 'playable']);
      assert.deepEqual(done.play.progressive.map((p: Progressive) => [p.rendition, p.width, p.height]), [['240p', 320, 240]]);
      assert.equal(await h.settle(), 0, 'nothing is left to do');
    });

    it('a text file and a truncated MP4 end transcode_error with a readable message, leaving no file', async () => {
      // A camera's file cut short: its index (moov) comes last, so the cut loses it.
      const clip = await makeClip({ width: 320, height: 240, seconds: 2, faststart: false });
      for (const bytes of [Buffer.from('not a video at all, just text\n'.repeat(20)), clip.subarray(0, clip.length >> 1)]) {
        const id = await uploadByTus(h, alice.token, bytes);
        await h.settle();
        const v = (await h.call('GET', `/videos/${id}`, { token: alice.token })).body;
        assert.deepEqual([v.status, v.transcode.status, v.play.status], ['transcode_error', 'error', 'unavailable']);
        assert.match(v.transcode.error, /not a video|no video stream|cannot be decoded/);
        const other = await h.user(`Viewer ${id}`);
        assert.equal((await h.call('GET', `/videos/${id}`, { token: other.token })).body.transcode.error, undefined, 'the reason is the owner’s');
        assert.deepEqual(videoFiles(h, id), []);
      }
    });
  });
}

describe('transcoding: the ladder, HLS and the files (sqlite)', () => {
  let h: Harness;
  let alice: Fixture;
  let bob: Fixture;
  before(async () => {
    h = await Harness.start(drivers[0]);
    alice = await h.user('Alice');
    bob = await h.user('Bob');
  });
  after(() => h.stop());

  const upload = async (clip: Buffer): Promise<{ id: string; play: Play }> => {
    const id = await uploadByTus(h, alice.token, clip);
    await h.settle();
    const v = (await h.call('GET', `/videos/${id}`, { token: bob.token })).body;
    assert.equal(v.status, 'available', JSON.stringify(v.transcode));
    return { id, play: v.play };
  };

  it('a 1280x720 upload gets 240/360/540/720 renditions as play.progressive says, and an HLS master whose segments all decode', async () => {
    const { id, play } = await upload(await makeClip({ width: 1280, height: 720, seconds: 5 }));
    assert.deepEqual(play.progressive.map((p) => [p.rendition, p.width, p.height, p.type, p.codec]), [
      ['240p', 426, 240, 'video/mp4', 'H264'],
      ['360p', 640, 360, 'video/mp4', 'H264'],
      ['540p', 960, 540, 'video/mp4', 'H264'],
      ['720p', 1280, 720, 'video/mp4', 'H264'],
    ]);
    for (const p of play.progressive) {
      const file = await fetchBytes(p.link);
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), 'video/mp4');
      assert.equal(file.bytes.length, p.size);
      const probed = await probeBytes(file.bytes);
      assert.deepEqual([probed.videoCodec, probed.width, probed.height, probed.audioCodec], ['h264', p.width, p.height, 'aac']);
      const range = await fetchBytes(p.link, { range: 'bytes=100-199' });
      assert.deepEqual([range.status, range.bytes.length], [206, 100]);
    }
    const master = await fetchBytes(play.hls!.link);
    assert.equal(master.headers.get('content-type'), 'application/vnd.apple.mpegurl');
    const listed = variants(master.bytes.toString());
    assert.deepEqual(listed.map((v) => v.attrs.RESOLUTION), ['426x240', '640x360', '960x540', '1280x720']);
    for (const v of listed) {
      assert.ok(Number(v.attrs.BANDWIDTH) > 0);
      assert.match(v.attrs.CODECS, /^avc1\.[0-9a-f]{6},mp4a\.40\.2$/);
      const media = await fetchBytes(new URL(v.uri, play.hls!.link).toString());
      assert.equal(media.status, 200);
      const text = media.bytes.toString();
      assert.match(text, /#EXT-X-PLAYLIST-TYPE:VOD/);
      assert.match(text, /#EXT-X-ENDLIST/);
      const durations = [...text.matchAll(/#EXTINF:([\d.]+)/g)].map((m) => Number(m[1]));
      assert.ok(durations.slice(0, -1).every((d) => d >= 3.9 && d <= 6.1), `segments of about 4–6 s: ${durations}`);
      // One fMP4 per rung: the playlist's map and segments are byte ranges of the rendition's MP4.
      assert.match(text, /^#EXTM3U\n#EXT-X-VERSION:7\n/);
      const map = /#EXT-X-MAP:URI="(\d+p\.mp4)",BYTERANGE="(\d+)@(\d+)"/.exec(text)!;
      assert.ok(map, text);
      const at = (uri: string) => new URL(uri, new URL(v.uri, play.hls!.link)).toString();
      const part = async (uri: string, length: string, offset: string) => {
        const r = await fetchBytes(at(uri), { range: `bytes=${offset}-${Number(offset) + Number(length) - 1}` });
        assert.deepEqual([r.status, r.headers.get('content-type'), r.bytes.length], [206, 'video/mp4', Number(length)]);
        return r.bytes;
      };
      const init = await part(map[1], map[2], map[3]);
      for (const [, length, offset, uri] of text.matchAll(/#EXT-X-BYTERANGE:(\d+)@(\d+)\n(.+)/g)) {
        assert.equal(uri, map[1]);
        assert.ok(await decodes(Buffer.concat([init, await part(uri, length, offset)])), `${v.uri} bytes ${offset}+${length} decode`);
      }
      assert.ok(play.progressive.some((p) => p.link.endsWith(`/${map[1]}`)), 'the progressive rendition is the same file');
    }
    const plays = (await h.call('GET', `/videos/${id}`, { token: alice.token })).body.stats.plays;
    assert.equal(plays, 0, 'fetching the files counts no play: the player’s view beacons do');

    // The storyboard: a WebVTT file at a signed link, naming tiles of sheets beside it (signed alike).
    assert.equal(play.storyboard!.link_expiration_time, play.hls!.link_expiration_time);
    const vtt = await fetchBytes(play.storyboard!.link);
    assert.deepEqual([vtt.status, vtt.headers.get('content-type')], [200, 'text/vtt; charset=utf-8']);
    const tiles = [...vtt.bytes.toString().matchAll(/^(storyboard-\d+\.jpg)#xywh=(\d+),(\d+),(\d+),(\d+)$/gm)];
    assert.ok(tiles.length >= 3, vtt.bytes.toString());
    for (const sheet of new Set(tiles.map((t) => t[1]))) {
      const image = await fetchBytes(new URL(sheet, play.storyboard!.link).toString());
      assert.deepEqual([image.status, image.headers.get('content-type')], [200, 'image/jpeg']);
    }
    assert.equal((await fetchBytes(play.storyboard!.link.replace('storyboard.vtt', 'storyboard-9.jpg'))).status, 404);
  });

  it('a portrait clip gets portrait renditions; a clip without audio, renditions without audio; a 2-frame clip plays', async () => {
    const portrait = await upload(await makeClip({ width: 360, height: 640, seconds: 2 }));
    assert.deepEqual(portrait.play.progressive.map((p) => [p.rendition, p.width < p.height]), [['240p', true], ['360p', true]]);
    const silent = await upload(await makeClip({ width: 320, height: 240, seconds: 2, audio: false }));
    const probed = await probeBytes((await fetchBytes(silent.play.progressive[0].link)).bytes);
    assert.equal(probed.hasAudio, false);
    assert.doesNotMatch((await fetchBytes(silent.play.hls!.link)).bytes.toString(), /mp4a/);
    const tiny = await upload(await makeClip({ width: 320, height: 240, seconds: 0.08, audio: false }));
    assert.ok(await decodes((await fetchBytes(tiny.play.progressive[0].link)).bytes, 'r.mp4'));
  });

  it('a video transcoded before fragmented MP4s keeps playing, and `repackage` makes it one copy a rung by stream copy, freeing the TS', async () => {
    const { id } = await upload(await makeClip({ width: 320, height: 240, seconds: 5 }));
    // The set as reelbase made it before: a faststart MP4 with keyframes every 2 s, TS segments beside it.
    const video = (await h.service.store.get<VideoRecord>('videos', id))!;
    const legacyKey = `videos/${id}/renditions/900001`;
    const dir = join(h.filesDir, legacyKey);
    mkdirSync(join(dir, '240p'), { recursive: true });
    const source = join(h.filesDir, video.file!.key);
    const ffmpeg = resolveFfmpeg()!.path;
    const legacy = ['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '50', '-sc_threshold', '0', '-force_key_frames', 'expr:gte(t,n_forced*2)', '-c:a', 'aac'];
    await run(ffmpeg, ['-v', 'error', '-i', source, ...legacy, '-movflags', '+faststart', join(dir, '240p.mp4')]);
    await run(ffmpeg, ['-v', 'error', '-i', join(dir, '240p.mp4'), '-c', 'copy', '-f', 'hls', '-hls_time', '4', '-hls_playlist_type', 'vod', '-hls_segment_filename', join(dir, '240p/seg_%03d.ts'), join(dir, '240p/index.m3u8')]);
    writeFileSync(join(dir, 'master.m3u8'), '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000\n240p/index.m3u8\n');
    const [rung] = video.renditions!.list;
    const old = { ...video.renditions!, key: legacyKey, list: [{ ...rung, size: statSync(join(dir, '240p.mp4')).size, playlist: '240p/index.m3u8' }] };
    await h.service.store.transaction((tx) => tx.update<VideoRecord>('videos', id, { renditions: old }));
    const packets = async (path: string) => (await run(ffmpeg, ['-v', 'error', '-i', path, '-map', '0:v', '-c', 'copy', '-f', 'md5', '-'])).stdout;
    const before = await packets(join(dir, '240p.mp4'));

    const read = async () => (await h.call('GET', `/videos/${id}`, { token: bob.token })).body.play as Play;
    const legacyPlay = await read();
    const media = new URL('240p/index.m3u8', legacyPlay.hls!.link).toString();
    const segment = (await fetchBytes(media)).bytes.toString().split('\n').find((l) => l.endsWith('.ts'))!;
    const ts = await fetchBytes(new URL(segment, media).toString());
    assert.deepEqual([ts.status, ts.headers.get('content-type')], [200, 'video/mp2t'], 'the legacy stream still plays');

    assert.equal(await queueRepackaging(h.service.store, h.clock.now()), 1);
    assert.equal(await h.settle(), 1);
    const now = (await h.service.store.get<VideoRecord>('videos', id))!.renditions!;
    assert.notEqual(now.key, legacyKey);
    assert.deepEqual(now.list.map((r) => [r.name, r.file, r.playlist]), [['240p', '240p.mp4', '240p.m3u8']]);
    assert.deepEqual(videoFiles(h, id).filter((f) => f.startsWith(legacyKey)), [], 'the old set, TS and all, is gone');
    assert.deepEqual(videoFiles(h, id).filter((f) => f.startsWith(now.key)).map((f) => f.slice(now.key.length + 1)).sort(), ['240p.m3u8', '240p.mp4', 'master.m3u8']);
    const play = await read();
    const file = await fetchBytes(play.progressive[0].link);
    assert.equal(file.status, 200);
    const copy = join(h.filesDir, 'repackaged.mp4');
    writeFileSync(copy, file.bytes);
    assert.equal(await packets(copy), before, 'the same frames: not re-encoded');
    const playlist = (await fetchBytes(new URL('240p.m3u8', play.hls!.link).toString())).bytes.toString();
    assert.deepEqual([...playlist.matchAll(/#EXTINF:([\d.]+)/g)].map((m) => Number(m[1])), [4, 1]);
    assert.equal(await queueRepackaging(h.service.store, h.clock.now()), 0, 'nothing left to re-package');
  });

  it('playback links are signed and expire: forged, foreign and expired links answer 404', async () => {
    const { id, play } = await upload(await makeClip({ width: 320, height: 240, seconds: 2 }));
    const link = play.progressive[0].link;
    assert.equal((await fetchBytes(link.replace(/-[0-9a-f]{32}\//, `-${'0'.repeat(32)}/`))).status, 404);
    assert.equal((await fetchBytes(link.replace(`/play/${id}/`, `/play/${Number(id) + 1}/`))).status, 404);
    assert.equal((await fetchBytes(link.replace('240p.mp4', '../../x.mp4'))).status, 404);
    // The video and a list, read (and remembered) before the day rolled, hand out links of the new day after it.
    const list = `/users/${alice.user.id}/videos?per_page=100`;
    const listed = async () => (await h.call('GET', list, { token: bob.token })).body.data.find((c: { uri: string }) => c.uri === `/videos/${id}`).play as Play;
    const read = async () => (await h.call('GET', `/videos/${id}`, { token: bob.token })).body.play as Play;
    for (let i = 0; i < 2; i++) assert.deepEqual([(await listed()).progressive[0].link, (await read()).progressive[0].link], [link, link]);
    h.clock.advance(2 * 86400);
    try {
      assert.equal((await fetchBytes(link)).status, 404);
      const renewed = [(await listed()).progressive[0].link, (await read()).progressive[0].link];
      assert.equal(renewed[0], renewed[1]);
      assert.notEqual(renewed[0], link);
      assert.equal((await fetchBytes(renewed[0])).status, 200);
    } finally {
      h.clock.advance(-2 * 86400);
    }
    await h.call('PATCH', `/videos/${id}`, { token: alice.token, json: { privacy: { view: 'nobody' } } });
    const hidden = await h.call('GET', `/videos/${id}`, { token: bob.token });
    assert.equal(hidden.status, 404, 'a viewer who may not watch is handed no link');
  });

  it('a replacement keeps the old renditions playing until its own are complete, then swaps them and removes the old files', async () => {
    const { id, play } = await upload(await makeClip({ width: 320, height: 240, seconds: 2 }));
    const oldFiles = videoFiles(h, id);
    const replacement = await makeClip({ width: 640, height: 360, seconds: 2 });
    const version = await h.call('POST', `/videos/${id}/versions`, { token: alice.token, json: { file_name: 'new.mp4', upload: { approach: 'tus', size: replacement.length } } });
    assert.equal(version.status, 201, version.text);
    await sendByTus(version.body.upload.upload_link, replacement);
    const during = (await h.call('GET', `/videos/${id}`, { token: alice.token })).body;
    assert.deepEqual([during.status, during.transcode.status], ['available', 'in_progress']);
    assert.deepEqual(during.play.progressive.map((p: Progressive) => p.height), [240]);
    assert.equal((await fetchBytes(play.progressive[0].link)).status, 200, 'the old rendition still plays');
    await h.settle();
    const after = (await h.call('GET', `/videos/${id}`, { token: alice.token })).body;
    assert.deepEqual([after.status, after.transcode.status, after.width, after.height], ['available', 'complete', 640, 360]);
    assert.deepEqual(after.play.progressive.map((p: Progressive) => p.height), [240, 360]);
    assert.equal((await fetchBytes(play.progressive[0].link)).status, 404, 'the old renditions are gone');
    assert.deepEqual(videoFiles(h, id).filter((f) => oldFiles.includes(f)), []);
  });

  it('deleting a video leaves the files directory without any of its files', async () => {
    const { id } = await upload(await makeClip({ width: 320, height: 240, seconds: 2 }));
    assert.ok(videoFiles(h, id).length > 3);
    assert.equal((await h.call('DELETE', `/videos/${id}`, { token: alice.token })).status, 204);
    assert.deepEqual(videoFiles(h, id), []);
  });
});

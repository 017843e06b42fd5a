import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { schema, type Store } from '@reelbase/core';
import { openJsonStore } from '@reelbase/store-json';
import { importInto, VerificationError } from '../src/dump/import-store';
import { readDump } from '../src/dump/read-dump';
import { parseStoreSpec } from '../src/index';
import { cli, tempDir } from './cli-harness';
import { contents, dumpLines, withStore } from './dump-helpers';
import { populateStore, type Population } from './populated-store';

const stdin = (text: string) => ({ stdin: Readable.from([text]) });

describe('export and import', () => {
  const source = 'json:source/reelbase.json';
  let dir: string;
  let cleanup: () => void;
  let population: Population;
  let dump: string;
  let exportErr: string;
  let empty: Awaited<ReturnType<typeof contents>>;
  let targets = 0;
  /** A store spec no test used yet. */
  const fresh = (driver: 'sqlite' | 'json') => `${driver}:t${++targets}/reelbase.${driver === 'sqlite' ? 'db' : 'json'}`;
  const importDump = (store: string, text: string, ...flags: string[]) => cli(['import', '--store', store, ...flags], { cwd: dir, ...stdin(text) });

  before(async () => {
    ({ dir, cleanup } = tempDir());
    population = await populateStore(parseStoreSpec(source, dir), join(dir, 'source', 'files'));
    const exported = await cli(['export', '--store', source], { cwd: dir });
    assert.equal(exported.code, 0, exported.stderr);
    dump = exported.stdout;
    exportErr = exported.stderr;
    empty = await contents(await openJsonStore({ schema }));
  });
  after(() => cleanup());

  it('export writes a header, then one line per document, collection by collection in id order', async () => {
    const [header, ...docs] = dumpLines(dump);
    assert.equal(header.format, 'reelbase-dump');
    assert.equal(header.version, 1);
    assert.deepEqual(Object.keys(header.collections), Object.keys(schema));
    assert.deepEqual(header.collections.videos, { id: 'auto', count: 4, sequence: 5 });
    assert.deepEqual(header.collections.tokens, { id: 'text', count: 3 });
    // The upload's give-up job (queued: due once its link expired), its transcode job (done), the
    // deleted video's file removal (queued: the fixture's in-process calls lend no blob store, so a
    // worker removes the files) and the key that signs media links travel with the store.
    assert.deepEqual(header.collections.jobs, { id: 'auto', count: 3, sequence: 3 });
    assert.deepEqual(header.collections.service_keys, { id: 'text', count: 1 });
    assert.deepEqual(header.collections.webhooks, { id: 'auto', count: 0, sequence: 0 });
    const total = Object.values(header.collections as Record<string, { count: number }>).reduce((n, c) => n + c.count, 0);
    assert.equal(docs.length, total);
    const state = await withStore(source, dir, contents);
    const expected = Object.entries(state).flatMap(([collection, { docs: all }]) => all.map((doc) => ({ collection, doc })));
    assert.deepEqual(docs, expected);
    assert.deepEqual(docs.filter((l) => l.collection === 'videos').map((l) => l.doc.id), ['1', '2', '3', '4']);
    assert.deepEqual(
      docs.filter((l) => l.collection === 'jobs').map((l) => [l.doc.kind, l.doc.state, l.doc.subject]),
      [
        ['uploads.abort', 'queued', population.videos.uploaded],
        ['transcode', 'done', population.videos.uploaded],
        ['blobs.delete', 'queued', `videos/${population.videos.deleted}`],
      ],
    );
  });

  it('export prints the counts and where the video files are on stderr, never on stdout', () => {
    assert.match(exportErr, /^COLLECTION\s+DOCUMENTS\s+SEQUENCE\n/);
    assert.match(exportErr, /^videos\s+4\s+5$/m);
    assert.match(exportErr, /^tokens\s+3$/m);
    assert.match(exportErr, /^jobs\s+3\s+3$/m);
    assert.match(exportErr, /^service_keys\s+1$/m);
    assert.doesNotMatch(exportErr, /^webhooks\s/m, 'an empty collection is not shown');
    assert.ok(exportErr.includes(`Exported ${dumpLines(dump).length - 1} documents from json:${join(dir, 'source', 'reelbase.json')}.\n`));
    assert.ok(exportErr.includes(`Video files are not in the dump: the videos reference 2 (`));
    assert.ok(exportErr.includes(`) in ${join(dir, 'source', 'files')}; copy that directory`));
  });

  it('round trip: json → sqlite → json keeps every document and sequence, and the dumps are identical', async () => {
    const sqlite = fresh('sqlite');
    const imported = await importDump(sqlite, dump);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /^videos\s+4\s+4\s+5\s+ok$/m);
    assert.match(imported.stdout, /^Imported into sqlite:.*: \d+ documents; every count and sequence matches the dump\.$/m);
    // The target's files directory has no copy yet: import says so, and succeeds.
    assert.equal(
      imported.stderr,
      `warning: 2 of the 2 video files the videos reference are not in ${join(dir, `t${targets}`, 'files')}: ` +
        "copy the source store's files directory there (or set REELBASE_FILES to it).\n",
    );
    assert.deepEqual(await withStore(sqlite, dir, contents), await withStore(source, dir, contents));
    const again = await cli(['export', '--store', sqlite], { cwd: dir });
    assert.equal(again.stdout, dump);

    const json = fresh('json');
    writeFileSync(join(dir, 'dump.jsonl'), again.stdout);
    const fromFile = await cli(['import', '--store', json, '--file', 'dump.jsonl', '--batch-size', '7'], { cwd: dir });
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.equal((await cli(['export', '--store', json], { cwd: dir })).stdout, dump);
  });

  it('a token of the imported store authenticates, and a new video gets a fresh id', async () => {
    const target = fresh('sqlite');
    assert.equal((await importDump(target, dump)).code, 0);
    const api = (...args: string[]) => cli(['api', ...args, '--store', target, '--token', population.tokens.ada], { cwd: dir });
    const me = await api('GET', '/me', '-d', 'fields=uri,name');
    assert.equal(me.code, 0, me.stderr);
    assert.deepEqual(JSON.parse(me.stdout), { uri: `/users/${population.users.ada}`, name: 'Ada' });
    const created = await api('POST', '/me/videos?fields=uri', '-d', 'name=New');
    assert.equal(created.code, 0, created.stderr);
    assert.deepEqual(JSON.parse(created.stdout), { uri: `/videos/${Number(population.videos.deleted) + 1}` });
  });

  it('refuses a non-empty target (exit 1) and leaves it untouched; --replace replaces it', async () => {
    const target = fresh('json');
    const made = await cli(['users', 'create', '--name', 'Squatter', '--store', target], { cwd: dir });
    assert.equal(made.code, 0);
    const before = await withStore(target, dir, contents);
    const refused = await importDump(target, dump);
    assert.deepEqual(refused, {
      code: 1,
      stdout: '',
      stderr: 'error: the target store is not empty (users: 1): import into an empty store, or add --replace to delete everything in it first\n',
    });
    assert.deepEqual(await withStore(target, dir, contents), before);
    const replaced = await importDump(target, dump, '--replace');
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.deepEqual(await withStore(target, dir, contents), await withStore(source, dir, contents));
  });

  describe('a dump that is cut short or wrong fails cleanly (exit 1) and leaves the target empty', () => {
    const lines = () => dump.trimEnd().split('\n');
    const cases: [what: string, text: () => string, error: string | RegExp | (() => string)][] = [
      ['cut in the middle of a line', () => dump.slice(0, dump.length - 40), () => `error: dump line ${lines().length} is not valid JSON (is the dump truncated?)\n`],
      [
        'cut at a line boundary',
        () => `${lines().slice(0, -2).join('\n')}\n`,
        /^error: the dump is incomplete: its header declares \d+ \w+ documents but it holds \d+ \(is it truncated\?\)\n$/,
      ],
      ['empty', () => '', 'error: the dump is empty: it has no header line\n'],
      ['not a dump', () => '{"hello":"world"}\n', 'error: dump line 1: not a reelbase dump (expected a header with "format": "reelbase-dump")\n'],
      [
        'a newer format version',
        () => `${JSON.stringify({ ...dumpLines(dump)[0], version: 2 })}\n`,
        'error: dump line 1: dump format version 2 is not supported (this reelbase reads version 1)\n',
      ],
      [
        'a collection this reelbase does not know',
        () => `${JSON.stringify({ format: 'reelbase-dump', version: 1, collections: { holograms: { id: 'auto', count: 0, sequence: 0 } } })}\n`,
        'error: the dump has a collection "holograms" this reelbase does not know (a dump from a newer version?)\n',
      ],
      [
        'a document of a collection the header does not list',
        () => `${lines()[0]}\n{"collection":"holograms","doc":{"id":"1"}}\n`,
        'error: dump line 2: "collection" must name a collection of the header, got "holograms"\n',
      ],
      ['a document without an id', () => `${lines()[0]}\n{"collection":"users","doc":{"name":"x"}}\n`, 'error: dump line 2: "doc" must be an object with a string "id"\n'],
      [
        'the same id twice',
        () => {
          const all = lines();
          const first = all.findIndex((l) => l.startsWith('{"collection":"users"'));
          return `${[...all.slice(0, first + 1), all[first], ...all.slice(first + 1)].join('\n')}\n`;
        },
        'error: cannot import users 1: unique key (id) already exists in users\n',
      ],
    ];
    for (const [what, text, error] of cases) {
      it(what, async () => {
        const target = fresh(targets % 2 ? 'sqlite' : 'json');
        const outcome = await importDump(target, text(), '--batch-size', '10');
        assert.equal(outcome.code, 1);
        assert.equal(outcome.stdout, '');
        if (error instanceof RegExp) assert.match(outcome.stderr, error);
        else assert.equal(outcome.stderr, typeof error === 'string' ? error : error());
        assert.deepEqual(await withStore(target, dir, contents), empty);
      });
    }

    it('a target emptied after a failure takes the whole dump afterwards', async () => {
      const target = fresh('sqlite');
      assert.equal((await importDump(target, dump.slice(0, dump.length - 40))).code, 1);
      assert.equal((await importDump(target, dump)).code, 0);
      assert.deepEqual(await withStore(target, dir, contents), await withStore(source, dir, contents));
    });
  });

  it('a count that does not match after the import fails, names the collection and empties the target', async () => {
    const store = await openJsonStore({ schema });
    // A store that misreports the videos sequence once the import has set it.
    const liar: Store = Object.assign(Object.create(store) as Store, {
      sequence: async (name: string) => (await store.sequence(name)) + (name === 'videos' && (await store.count('videos')) > 0 ? 1 : 0),
    });
    await assert.rejects(
      importInto(liar, schema, { replace: false }, (sink) => readDump(Readable.from([dump]), sink)),
      (error: unknown) => {
        assert.ok(error instanceof VerificationError);
        assert.equal(error.message, 'the target does not match the dump in videos; the target was emptied again');
        assert.deepEqual(
          error.checks.find((c) => c.collection === 'videos'),
          { collection: 'videos', expected: 4, found: 4, expectedSequence: 5, foundSequence: 6 },
        );
        return true;
      },
    );
    assert.deepEqual(await contents(store), empty);
  });

  it('export --file writes the dump there (creating its directory) and nothing on stdout; a missing store is exit 1 and creates nothing', async () => {
    const written = await cli(['export', '--store', source, '--file', 'out/copy.jsonl'], { cwd: dir });
    assert.equal(written.code, 0, written.stderr);
    assert.equal(written.stdout, '');
    assert.ok(written.stderr.includes(` to ${join(dir, 'out', 'copy.jsonl')}.\n`));
    assert.equal(readFileSync(join(dir, 'out', 'copy.jsonl'), 'utf8'), dump);
    assert.deepEqual(readdirSync(join(dir, 'out')), ['copy.jsonl'], 'no temporary file is left');
    const missing = await cli(['export', '--store', 'sqlite:nowhere/reelbase.db', '--file', 'out/never.jsonl'], { cwd: dir });
    assert.deepEqual(missing, { code: 1, stdout: '', stderr: `error: there is no store at ${join(dir, 'nowhere', 'reelbase.db')}\n` });
    assert.ok(!existsSync(join(dir, 'nowhere')));
    assert.deepEqual(readdirSync(join(dir, 'out')), ['copy.jsonl'], 'a failed export leaves no file');
  });

  it('usage errors are exit 2: a bad --batch-size, a terminal on stdin; a missing --file is exit 1', async () => {
    const target = fresh('json');
    assert.deepEqual(await importDump(target, dump, '--batch-size', '0'), {
      code: 2,
      stdout: '',
      stderr: 'error: --batch-size must be a whole number from 1 to 100000, got "0"\n(add --help for usage)\n',
    });
    const tty = Object.assign(Readable.from([]), { isTTY: true });
    assert.deepEqual(await cli(['import', '--store', target], { cwd: dir, stdin: tty }), {
      code: 2,
      stdout: '',
      stderr: 'error: import reads a dump from stdin (reelbase import --store S < dump.jsonl) or from --file\n(add --help for usage)\n',
    });
    assert.deepEqual(await cli(['import', '--store', target, '--file', 'absent.jsonl'], { cwd: dir }), {
      code: 1,
      stdout: '',
      stderr: `error: there is no dump file at ${join(dir, 'absent.jsonl')}\n`,
    });
  });
});

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { killed, startServerProcess } from '@reelbase/api-tests';
import { spawnSync } from 'node:child_process';
import { createService, createToken, createUser, parseScopes } from '@reelbase/core';
import { serve, type RunningServer } from '@reelbase/http';
import { scratchDatabase } from '@reelbase/store-postgres';
import { sqliteIntegrity } from '@reelbase/store-sqlite';
import { pgTool } from '../src/backup/pg-tools';
import { openStore, parseStoreSpec } from '../src/store-spec';
import { cli, stdoutJson, tempDir, useTempDir } from './cli-harness';

const writes = 500;
/** Acknowledged writes before the backup starts: the rest of the burst runs while it copies. */
const backupAfter = 200;

/**
 * A burst of `writes` album creations, `lanes` at a time, against `base`; once `backupAfter` are
 * acknowledged, `backup` runs while the burst goes on. Answers the names acknowledged before the
 * backup began, and how many were acknowledged while it ran.
 */
async function burstWithBackup(base: string, token: string, backup: () => Promise<void>): Promise<{ before: string[]; during: number }> {
  const acked: string[] = [];
  let next = 0;
  let started: Promise<void> | undefined;
  let backupDone = false;
  let before: string[] = [];
  let during = 0;
  const lane = async () => {
    while (next < writes) {
      const name = `burst ${next++}`;
      const r = await fetch(`${base}/me/albums`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name, description: 'backup test' }) });
      assert.equal(r.status, 201, await r.text());
      await r.arrayBuffer().catch(() => {});
      acked.push(name);
      if (started && !backupDone) during++;
      if (!started && acked.length >= backupAfter) {
        before = [...acked];
        started = backup().finally(() => (backupDone = true));
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, lane));
  await started;
  return { before, during };
}

/** Every album name the store at `spec` serves to `token`'s user, read through a server on it. */
async function servedAlbums(spec: string, dir: string, token: string): Promise<Set<string>> {
  const service = createService({ store: await openStore(parseStoreSpec(spec, dir)), config: { rateLimit: null } });
  const server: RunningServer = await serve(service, { port: 0, host: '127.0.0.1', filesDir: join(dir, 'restored-files'), worker: false });
  try {
    const names = new Set<string>();
    for (let page = 1; ; page++) {
      const r = await fetch(`${server.url}/me/albums?per_page=100&page=${page}&fields=name`, { headers: { Authorization: `Bearer ${token}` } });
      assert.equal(r.status, 200);
      const body = (await r.json()) as { data: { name: string }[]; paging: { next: string | null } };
      for (const album of body.data) names.add(album.name);
      if (!body.paging.next) return names;
    }
  } finally {
    await server.close();
  }
}

for (const kind of ['sqlite', 'json'] as const) {
  describe(`backup of a live ${kind} store during a burst of writes, and restore`, () => {
    const temp = useTempDir();

    it(`restores every write acknowledged before the backup began (${writes} writes from a server process)`, async () => {
      const source = `${kind}:${join(temp.dir, `live.${kind === 'sqlite' ? 'db' : 'json'}`)}`;
      const file = join(temp.dir, `backup.${kind}`);
      const server = await startServerProcess(kind, parseStoreSpec(source, temp.dir).path!);
      let backupAnswer;
      let burst;
      try {
        burst = await burstWithBackup(server.base, server.token, async () => {
          backupAnswer = await cli(['backup', '--store', source, '--to', file, '--json']);
        });
      } finally {
        await killed(server.child);
      }
      assert.equal(backupAnswer!.code, 0, backupAnswer!.stderr);
      assert.deepEqual(stdoutJson(backupAnswer!), { store: source, file, method: kind === 'sqlite' ? 'sqlite-backup-api' : 'json-commit-copy' });
      assert.ok(burst.during > 0, 'writes went on while the backup ran');
      if (kind === 'sqlite') assert.deepEqual(sqliteIntegrity(file), []);

      const target = `${kind}:${join(temp.dir, `restored.${kind === 'sqlite' ? 'db' : 'json'}`)}`;
      const restored = await cli(['restore', '--from', file, '--store', target]);
      assert.equal(restored.code, 0, restored.stderr);
      assert.match(restored.stdout, /^Restored .* \(.*\)\.\nVideo files are not in it: .*blobs migrate.*blobs check/);
      const served = await servedAlbums(target, temp.dir, server.token);
      const lost = burst.before.filter((name) => !served.has(name));
      assert.deepEqual(lost, [], 'every write acknowledged before the backup began is served');
      assert.ok(served.size >= burst.before.length && served.size <= writes, `${served.size} albums`);

      const again = await cli(['restore', '--from', file, '--store', target]);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /^error: the target store .* is not empty \(.*albums: \d+.*\): restore into an empty store, or add --force to replace it\n$/);
      assert.equal((await cli(['restore', '--from', file, '--store', target, '--force'])).code, 0);
    });
  });
}

describe('backup of a PostgreSQL store', () => {
  it('without pg_dump on PATH or in REELBASE_PG_BIN, says how to install it and prints the command to run, password masked', async () => {
    const answer = await cli(['backup', '--store', 'postgres://reelbase:s3cret@db.internal:5432/reelbase', '--to', 'backups/r.dump'], {
      env: { PATH: '/nonexistent', REELBASE_PG_BIN: '/nowhere' },
      cwd: '/srv',
    });
    assert.equal(answer.code, 1);
    assert.equal(
      answer.stderr,
      'error: pg_dump is neither on PATH nor in /nowhere. Install PostgreSQL\'s client tools (Debian: apt-get install postgresql-client; they land in /usr/lib/postgresql/15/bin) ' +
        "or set REELBASE_PG_BIN to their directory, or run it yourself:\n    pg_dump --format=custom --no-owner --file=/srv/backups/r.dump --dbname='postgres://reelbase:PASSWORD@db.internal:5432/reelbase'\n",
    );
  });

  // With REELBASE_TEST_POSTGRES (scripts/with-postgres.sh) and pg_dump on PATH or in Debian's directory (the CLI looks there too).
  const server = process.env.REELBASE_TEST_POSTGRES;
  const env = { PATH: process.env.PATH };
  const skip = !server ? 'not selected: set REELBASE_TEST_POSTGRES=postgres://… (scripts/with-postgres.sh does)' : !pgTool('pg_dump', env) ? 'pg_dump is not installed' : false;
  it('pg_dump runs during a burst of writes; pg_restore brings every write acknowledged before it into another database, and refuses a non-empty target', { skip }, async () => {
    const database = scratchDatabase(server!);
    // Another database, whose first schema has the source's name (a dump restores into its own schema).
    const other = scratchDatabase(server!);
    const { dir, cleanup } = tempDir();
    try {
      const url = await database.freshUrl();
      const target = await other.freshUrl();
      const service = createService({ store: await openStore(parseStoreSpec(url, dir)), config: { rateLimit: null } });
      const running = await serve(service, { port: 0, host: '127.0.0.1', filesDir: join(dir, 'files'), worker: false });
      const user = await createUser(service.store, new Date(), { name: 'burst' });
      const { token } = await createToken(service.store, new Date(), user.id, parseScopes('all'));
      const file = join(dir, 'backup.dump');
      let answer;
      let burst;
      try {
        burst = await burstWithBackup(running.url, token, async () => {
          answer = await cli(['backup', '--store', url, '--to', file, '--json'], { env });
        });
      } finally {
        await running.close();
      }
      assert.equal(answer!.code, 0, answer!.stderr);
      assert.equal(stdoutJson(answer!).method, 'pg_dump');
      assert.ok(burst.during > 0, 'writes went on while pg_dump ran');
      const listed = spawnSync(pgTool('pg_restore', env)!, ['--list', file], { encoding: 'utf8' });
      assert.equal(listed.status, 0, listed.stderr);
      assert.match(listed.stdout, /Format: CUSTOM/);
      assert.match(listed.stdout, /TABLE DATA \S+ albums /);
      const refused = await cli(['restore', '--from', file, '--store', url], { env });
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /is not empty \(.*albums: \d+/);

      const restored = await cli(['restore', '--from', file, '--store', target, '--json'], { env });
      assert.equal(restored.code, 0, restored.stderr);
      assert.deepEqual(stdoutJson(restored), { store: target, file, method: 'pg_restore' });
      const served = await servedAlbums(target, dir, token);
      const lost = burst.before.filter((name) => !served.has(name));
      assert.deepEqual(lost, [], 'every write acknowledged before the backup began is served');
      assert.ok(served.size >= burst.before.length && served.size <= writes, `${served.size} albums`);
      const again = await cli(['restore', '--from', file, '--store', target], { env });
      assert.equal(again.code, 1);
      assert.match(again.stderr, /is not empty \(.*albums: \d+/);
    } finally {
      cleanup();
      await database.drop();
      await other.drop();
    }
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { GroupCommit, type GroupLimits } from '../src/group-commit';

/** A GroupCommit over an in-memory database whose BEGIN and COMMIT statements are logged. */
function logged(limits: GroupLimits): { commits: GroupCommit; log: string[]; db: Database.Database } {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (v TEXT UNIQUE)');
  const log: string[] = [];
  const exec = db.exec.bind(db);
  db.exec = (sql: string) => {
    if (/^(BEGIN IMMEDIATE|COMMIT)$/.test(sql)) log.push(sql);
    return exec(sql);
  };
  return { commits: new GroupCommit(db, limits, () => log.push('before commit')), log, db };
}

/** Queues `values.length` writes at once and runs them in turn, as the store's mutex does. */
async function writeQueued(commits: GroupCommit, db: Database.Database, values: string[]): Promise<void> {
  for (const _ of values) commits.queued();
  const durable: Promise<void>[] = [];
  for (const v of values) durable.push((await commits.run(() => db.prepare('INSERT INTO t VALUES (?)').run(v))).durable);
  await Promise.all(durable);
}

describe('sqlite group commit', () => {
  it('commits a group once it holds maxWrites writes, and the rest in the next', async () => {
    const { commits, log, db } = logged({ maxWrites: 2, maxMs: Infinity });
    await writeQueued(commits, db, ['a', 'b', 'c']);
    assert.deepEqual(log, ['BEGIN IMMEDIATE', 'before commit', 'COMMIT', 'BEGIN IMMEDIATE', 'before commit', 'COMMIT']);
    assert.equal(db.prepare('SELECT count(*) AS n FROM t').pluck().get(), 3);
  });

  it('lets no write join a group older than maxMs', async () => {
    const { commits, log, db } = logged({ maxWrites: 64, maxMs: 0 });
    await writeQueued(commits, db, ['a', 'b']);
    assert.deepEqual(log, ['BEGIN IMMEDIATE', 'before commit', 'COMMIT', 'BEGIN IMMEDIATE', 'before commit', 'COMMIT']);
  });

  it('keeps a group open for a queued write after one that failed, and commits the others', async () => {
    const { commits, log, db } = logged({ maxWrites: 64, maxMs: Infinity });
    for (let i = 0; i < 3; i++) commits.queued();
    const insert = (v: string) => () => db.prepare('INSERT INTO t VALUES (?)').run(v);
    const first = await commits.run(insert('a'));
    await assert.rejects(commits.run(insert('a')), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
    const third = await commits.run(insert('c'));
    await Promise.all([first.durable, third.durable]);
    assert.deepEqual(log, ['BEGIN IMMEDIATE', 'before commit', 'COMMIT']);
    assert.deepEqual(db.prepare('SELECT v FROM t ORDER BY v').pluck().all(), ['a', 'c']);
  });
});

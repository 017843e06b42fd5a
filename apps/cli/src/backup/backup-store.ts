import { existsSync } from 'node:fs';
import { schema } from '@reelbase/core';
import type { Env } from '../context';
import { occupiedCollections } from '../dump/import-store';
import { UsageError } from '../errors';
import { describeStore, openStore, type StoreSpec } from '../store-spec';
import { pgDumpArgs, pgRestoreArgs, runPgTool } from './pg-tools';

/** What a backup or restore did, for the report. */
export interface BackupOutcome {
  store: string;
  file: string;
  /** How the copy was made. */
  method: 'sqlite-backup-api' | 'json-commit-copy' | 'pg_dump' | 'pg_restore';
}

const needsFile = (spec: StoreSpec, verb: string): string => {
  if (spec.path === null && spec.driver !== 'postgres') throw new UsageError(`an in-memory store cannot be ${verb}: name a file (sqlite:PATH, json:PATH) or a postgres:// database`);
  return spec.path ?? '';
};

/**
 * A consistent copy of a live store in `to`, while servers go on writing: SQLite through its
 * online backup API (checked with PRAGMA integrity_check), JSON as one of its commits, PostgreSQL
 * with `pg_dump -Fc` (found by pgTool).
 */
export async function backupStore(spec: StoreSpec, to: string, env: Env): Promise<BackupOutcome> {
  const source = needsFile(spec, 'backed up');
  const store = describeStore(spec);
  if (spec.driver === 'postgres') {
    await runPgTool('pg_dump', pgDumpArgs(spec.url!, to), env);
    return { store, file: to, method: 'pg_dump' };
  }
  if (!existsSync(source)) throw new Error(`there is no store at ${source}`);
  if (spec.driver === 'sqlite') {
    const { backupSqlite } = await import('@reelbase/store-sqlite');
    await backupSqlite(source, to);
    return { store, file: to, method: 'sqlite-backup-api' };
  }
  const { copyJsonStore } = await import('@reelbase/store-json');
  await copyJsonStore(source, to);
  return { store, file: to, method: 'json-commit-copy' };
}

/** A restore target that holds documents, and no --force. */
export class RestoreTargetNotEmptyError extends Error {
  override readonly name = 'RestoreTargetNotEmptyError';
  constructor(target: string, occupied: Readonly<Record<string, number>>) {
    const list = Object.entries(occupied).map(([name, n]) => `${name}: ${n}`);
    super(`the target store ${target} is not empty (${list.slice(0, 5).join(', ')}${list.length > 5 ? ', …' : ''}): restore into an empty store, or add --force to replace it`);
  }
}

/**
 * Replaces the store `spec` names with the backup `from`, refusing a store that holds documents
 * unless `force`. No server may be running on the target meanwhile (stop them, restore, start them).
 */
export async function restoreStore(spec: StoreSpec, from: string, force: boolean, env: Env): Promise<BackupOutcome> {
  const target = needsFile(spec, 'restored');
  if (!existsSync(from)) throw new UsageError(`there is no backup at ${from}`);
  const store = describeStore(spec);
  // Opening the target creates it when missing (and its tables), so an empty one reads as empty.
  const opened = await openStore(spec);
  try {
    const occupied = await occupiedCollections(opened, schema);
    if (Object.keys(occupied).length && !force) throw new RestoreTargetNotEmptyError(store, occupied);
  } finally {
    await opened.close();
  }
  if (spec.driver === 'postgres') {
    // The tables the open just made are replaced by the dump's.
    await runPgTool('pg_restore', pgRestoreArgs(spec.url!, from), env);
    return { store, file: from, method: 'pg_restore' };
  }
  if (spec.driver === 'sqlite') {
    const { restoreSqlite } = await import('@reelbase/store-sqlite');
    await restoreSqlite(from, target);
    return { store, file: from, method: 'sqlite-backup-api' };
  }
  const { copyJsonStore } = await import('@reelbase/store-json');
  await copyJsonStore(from, target);
  return { store, file: from, method: 'json-commit-copy' };
}

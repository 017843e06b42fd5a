export { openSqliteStore, type SqliteStoreOptions } from './open-sqlite-store';
export type { SearchBuildProgress } from './sqlite-search';
export { backupSqlite, restoreSqlite, sqliteIntegrity } from './backup';

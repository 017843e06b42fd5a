export { openPostgresStore, type PostgresStoreOptions } from './open-postgres-store';
export { scratchDatabase, type ScratchDatabase } from './scratch-database';

import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type LogEvent, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { type Engine, migrateToLatest } from './migrations.ts';
import type { Database } from './schema.ts';
import { SqliteThreadDialect } from './sqlite-dialect.ts';
import { SqlStore } from './sql-store.ts';
import { PostgresLiveBus } from './sql/pg-live-bus.ts';
import { QueryCounts } from './usage.ts';

export interface StoreLocation {
  dataDir: string;
  databaseUrl?: string | undefined;
}

export const SQLITE_FILE_NAME = 'drawbridge.sqlite';

/** How every connection to the SQLite file is set up. */
const SQLITE_PRAGMAS = [
  'journal_mode = WAL',
  // FULL: a write acknowledged to a client survives a crash or power cut.
  'synchronous = FULL',
  'foreign_keys = ON',
  'busy_timeout = 5000',
];

export function openSqliteDatabase(file: string): SQLite.Database {
  const database = new SQLite(file);
  for (const pragma of SQLITE_PRAGMAS) database.pragma(pragma);
  return database;
}

const STATEMENT_CACHE_SIZE = 256;
/** PostgreSQL connections each server process holds at most (the live bus's listening one aside). */
const PG_POOL_MAX = 10;

function postgresPool(databaseUrl: string, max: number, lostConnection: () => void = () => {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max });
  // An idle client losing its connection must not crash the process.
  pool.on('error', lostConnection);
  return pool;
}

function sqliteKysely(location: StoreLocation, log?: (event: LogEvent) => void): Kysely<Database> {
  fs.mkdirSync(location.dataDir, { recursive: true });
  const dialect = new SqliteThreadDialect({
    file: path.join(location.dataDir, SQLITE_FILE_NAME),
    pragmas: SQLITE_PRAGMAS,
    statementCacheSize: STATEMENT_CACHE_SIZE,
    open: openSqliteDatabase,
  });
  return new Kysely<Database>({ dialect, ...(log ? { log } : {}) });
}

/** Migrates the SQLite file in DATA_DIR to the latest schema over a connection on this thread, then closes it. */
async function migrateSqliteFile(location: StoreLocation): Promise<void> {
  fs.mkdirSync(location.dataDir, { recursive: true });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: openSqliteDatabase(path.join(location.dataDir, SQLITE_FILE_NAME)) }) });
  try {
    await migrateToLatest(db, 'sqlite');
  } finally {
    await db.destroy();
  }
}

/** Opens the configured database (PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR) and migrates it. */
export async function openStore(location: StoreLocation): Promise<SqlStore> {
  // Every query the store runs through Kysely is counted, and its failures by kind (store.usage(), for the metrics).
  const counts = new QueryCounts();
  const log = (event: LogEvent) => (event.level === 'error' ? counts.failed(event.error) : counts.query());
  if (!location.databaseUrl) {
    // Before anything is served, on this thread: a migration is a hundred statements, each a round trip to the writer's thread.
    await migrateSqliteFile(location);
    return new SqlStore(sqliteKysely(location, log), 'sqlite', { counts });
  }
  const pool = postgresPool(location.databaseUrl, PG_POOL_MAX, () => counts.lostConnection());
  const store = new SqlStore(new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log }), 'postgres', {
    pgPool: pool,
    liveBus: new PostgresLiveBus(location.databaseUrl, pool),
    counts,
  });
  try {
    await migrateToLatest(store.db, store.engine);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/** The configured database as it is, not migrated: for restoring a backup, which chooses the schema version itself. */
export function connectDatabase(location: StoreLocation): { db: Kysely<Database>; engine: Engine } {
  if (location.databaseUrl) {
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool: postgresPool(location.databaseUrl, 2) }) }), engine: 'postgres' };
  }
  return { db: sqliteKysely(location), engine: 'sqlite' };
}

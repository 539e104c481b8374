import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type LogEvent, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { type Engine, migrateToLatest } from './migrations.ts';
import type { Database } from './schema.ts';
import { SqlStore } from './sql-store.ts';
import { PostgresLiveBus } from './sql/pg-live-bus.ts';
import { QueryCounts } from './usage.ts';

export interface StoreLocation {
  dataDir: string;
  databaseUrl?: string | undefined;
}

export const SQLITE_FILE_NAME = 'drawbridge.sqlite';

export function openSqliteDatabase(file: string): SQLite.Database {
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  // FULL: a write acknowledged to a client survives a crash or power cut.
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  return database;
}

const STATEMENT_CACHE_SIZE = 256;
/** PostgreSQL connections each server process holds at most (the live bus's listening one aside). */
const PG_POOL_MAX = 10;

/**
 * better-sqlite3 behind Kysely, with prepared statements reused by SQL text:
 * Kysely prepares every query anew, which costs more than running it.
 */
function withStatementCache(database: SQLite.Database) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    prepare(sqlText: string) {
      let statement = statements.get(sqlText);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
        statement = database.prepare(sqlText);
        statements.set(sqlText, statement);
      }
      return statement;
    },
    close: () => database.close(),
  };
}

function postgresPool(databaseUrl: string, max: number, lostConnection: () => void = () => {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max });
  // An idle client losing its connection must not crash the process.
  pool.on('error', lostConnection);
  return pool;
}

function sqliteKysely(location: StoreLocation, log?: (event: LogEvent) => void): Kysely<Database> {
  fs.mkdirSync(location.dataDir, { recursive: true });
  const database = openSqliteDatabase(path.join(location.dataDir, SQLITE_FILE_NAME));
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }), ...(log ? { log } : {}) });
}

/** Opens the configured database (PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR) and migrates it. */
export async function openStore(location: StoreLocation): Promise<SqlStore> {
  let store: SqlStore;
  // Every query the store runs through Kysely is counted, and its failures by kind (store.usage(), for the metrics).
  const counts = new QueryCounts();
  const log = (event: LogEvent) => (event.level === 'error' ? counts.failed(event.error) : counts.query());
  if (location.databaseUrl) {
    const pool = postgresPool(location.databaseUrl, PG_POOL_MAX, () => counts.lostConnection());
    store = new SqlStore(new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log }), 'postgres', {
      pgPool: pool,
      liveBus: new PostgresLiveBus(location.databaseUrl, pool),
      counts,
    });
  } else {
    store = new SqlStore(sqliteKysely(location, log), 'sqlite', { counts });
  }
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

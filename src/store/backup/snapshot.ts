import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { type Engine, MIGRATION_TABLE } from '../migrations.ts';
import { openSqliteDatabase, SQLITE_FILE_NAME, type StoreLocation } from '../open.ts';
import { BackupError } from './format.ts';
import { BACKUP_TABLES } from './tables.ts';

/** Rows read from the database at a time. */
const BATCH_ROWS = 500;

/** One consistent view of the whole database, read table by table in batches. */
export interface Snapshot {
  readonly engine: Engine;
  /** The schema version: the last migration applied. */
  readonly migration: string;
  /** The backed-up tables the database holds, in restore order, with their row counts. */
  readonly tables: ReadonlyArray<{ name: string; rows: number }>;
  columns(table: string): Promise<string[]>;
  /** The table's rows as arrays of values in column order, a batch at a time. */
  batches(table: string): AsyncGenerator<unknown[][]>;
  close(): Promise<void>;
}

const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

function noSchema(): BackupError {
  return new BackupError('the database has no schema yet (no migration applied): nothing to back up');
}

/**
 * SQLite: SQLite's online backup API copies the database to `copyFile` in one
 * step, inside one read transaction. In WAL mode that reader does not block the
 * server's writes, and the copy is the database as of one commit. The snapshot
 * reads that copy, which is deleted on close.
 */
export async function sqliteSnapshot(location: StoreLocation, copyFile: string): Promise<Snapshot> {
  const file = path.join(location.dataDir, SQLITE_FILE_NAME);
  if (!fs.existsSync(file)) throw new BackupError(`no database at ${file}`);
  const copyFiles = [copyFile, `${copyFile}-wal`, `${copyFile}-shm`];
  const removeCopy = () => copyFiles.forEach((f) => fs.rmSync(f, { force: true }));
  removeCopy();
  // The copy holds everything the database does: readable by its owner alone, as the backup file is.
  fs.writeFileSync(copyFile, '', { mode: 0o600 });
  const source = openSqliteDatabase(file);
  try {
    // Every remaining page in one step: a backup copied in several steps starts again whenever another connection writes.
    await source.backup(copyFile, { progress: () => 0x7fffffff });
  } catch (error) {
    removeCopy();
    throw error;
  } finally {
    source.close();
  }
  const copy = new SQLite(copyFile);
  const release = async () => {
    copy.close();
    removeCopy();
  };
  try {
    // The copy keeps the database's WAL mode; out of it, reading leaves no -wal or -shm file behind.
    copy.pragma('journal_mode = DELETE');
    const present = new Set(copy.prepare(`select name from sqlite_master where type = 'table'`).pluck().all() as string[]);
    if (!present.has(MIGRATION_TABLE)) throw noSchema();
    const migration = copy.prepare(`select name from ${MIGRATION_TABLE} order by name desc limit 1`).pluck().get() as string | undefined;
    if (!migration) throw noSchema();
    const tables = BACKUP_TABLES.filter((t) => present.has(t.name)).map((t) => ({
      name: t.name,
      rows: copy.prepare(`select count(*) from ${quoted(t.name)}`).pluck().get() as number,
    }));
    return {
      engine: 'sqlite',
      migration,
      tables,
      columns: async (table) => copy.prepare(`select * from ${quoted(table)}`).columns().map((c) => c.name),
      async *batches(table) {
        let batch: unknown[][] = [];
        for (const row of copy.prepare(`select * from ${quoted(table)}`).raw(true).iterate() as Iterable<unknown[]>) {
          batch.push(row);
          if (batch.length === BATCH_ROWS) {
            yield batch;
            batch = [];
          }
        }
        if (batch.length > 0) yield batch;
      },
      close: release,
    };
  } catch (error) {
    await release();
    throw error;
  }
}

/** PostgreSQL's type id of bigint: read as text by the driver, written to the backup as a number. */
const INT8 = 20;

/**
 * PostgreSQL: one connection in a REPEATABLE READ READ ONLY transaction, so
 * every table is read as of one instant while writes go on; each table is read
 * through a cursor, a batch at a time.
 */
export async function postgresSnapshot(databaseUrl: string): Promise<Snapshot> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const release = async () => {
    await client.query('rollback').catch(() => {});
    await client.end();
  };
  try {
    await client.query('begin isolation level repeatable read read only');
    const present = new Set(
      (await client.query<{ table_name: string }>(`select table_name from information_schema.tables where table_schema = current_schema()`)).rows.map((r) => r.table_name),
    );
    if (!present.has(MIGRATION_TABLE)) throw noSchema();
    const latest = await client.query<{ name: string }>(`select name from ${MIGRATION_TABLE} order by name desc limit 1`);
    const migration = latest.rows[0]?.name;
    if (!migration) throw noSchema();
    const tables: Array<{ name: string; rows: number }> = [];
    for (const table of BACKUP_TABLES.filter((t) => present.has(t.name))) {
      const counted = await client.query<{ rows: string }>(`select count(*) as rows from ${quoted(table.name)}`);
      tables.push({ name: table.name, rows: Number(counted.rows[0]!.rows) });
    }
    return {
      engine: 'postgres',
      migration,
      tables,
      async columns(table) {
        const result = await client.query({ text: `select * from ${quoted(table)} limit 0`, rowMode: 'array' });
        return result.fields.map((f) => f.name);
      },
      async *batches(table) {
        await client.query(`declare backup_rows no scroll cursor for select * from ${quoted(table)}`);
        for (;;) {
          const fetched = await client.query({ text: `fetch ${BATCH_ROWS} from backup_rows`, rowMode: 'array' });
          if (fetched.rows.length === 0) break;
          const bigints = fetched.fields.flatMap((f, i) => (f.dataTypeID === INT8 ? [i] : []));
          for (const row of fetched.rows as unknown[][]) {
            for (const i of bigints) if (row[i] !== null) row[i] = Number(row[i]);
          }
          yield fetched.rows as unknown[][];
        }
        await client.query('close backup_rows');
      },
      close: release,
    };
  } catch (error) {
    await release();
    throw error;
  }
}

import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { StoreLocation } from '../open.ts';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, BackupError, type BackupHeader, type EndLine, encodeValue, type TableLine } from './format.ts';
import { postgresSnapshot, type Snapshot, sqliteSnapshot } from './snapshot.ts';

export interface BackupSummary {
  file: string;
  engine: string;
  migration: string;
  tables: Record<string, number>;
  rows: number;
  /** Size of the backup file. */
  bytes: number;
}

/** Text handed to the compressor at a time. */
const CHUNK_CHARS = 1 << 16;

async function* backupText(snapshot: Snapshot, createdAt: Date): AsyncGenerator<string> {
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    engine: snapshot.engine,
    migration: snapshot.migration,
    createdAt: createdAt.toISOString(),
    tables: [...snapshot.tables],
  };
  let text = `${JSON.stringify(header)}\n`;
  let rows = 0;
  for (const table of snapshot.tables) {
    const tableLine: TableLine = { table: table.name, columns: await snapshot.columns(table.name) };
    text += `${JSON.stringify(tableLine)}\n`;
    let tableRows = 0;
    for await (const batch of snapshot.batches(table.name)) {
      tableRows += batch.length;
      for (const row of batch) {
        text += `${JSON.stringify(row.map(encodeValue))}\n`;
        if (text.length >= CHUNK_CHARS) {
          yield text;
          text = '';
        }
      }
    }
    // The snapshot is one instant: its rows are the ones it counted.
    if (tableRows !== table.rows) throw new BackupError(`table ${table.name} changed while it was read (${table.rows} rows counted, ${tableRows} read)`);
    rows += tableRows;
  }
  const end: EndLine = { end: BACKUP_FORMAT, rows };
  yield `${text}${JSON.stringify(end)}\n`;
}

/**
 * Writes the snapshot to `file`: first to `file.partial`, flushed to disk,
 * then renamed, so a backup that fails leaves no file that looks complete.
 */
export async function writeBackup(snapshot: Snapshot, file: string, createdAt: Date): Promise<BackupSummary> {
  const partial = `${file}.partial`;
  try {
    await fs.promises.rm(partial, { force: true });
    await pipeline(Readable.from(backupText(snapshot, createdAt)), zlib.createGzip(), fs.createWriteStream(partial, { mode: 0o600 }));
    const handle = await fs.promises.open(partial, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(partial, file);
  } catch (error) {
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
  return {
    file,
    engine: snapshot.engine,
    migration: snapshot.migration,
    tables: Object.fromEntries(snapshot.tables.map((t) => [t.name, t.rows])),
    rows: snapshot.tables.reduce((sum, t) => sum + t.rows, 0),
    bytes: fs.statSync(file).size,
  };
}

/** Backs up the configured database (PostgreSQL when `databaseUrl` is set, else SQLite in `dataDir`) to `file`, which must not exist. */
export async function backupDatabase(location: StoreLocation, file: string, now: Date): Promise<BackupSummary> {
  const target = path.resolve(file);
  if (fs.existsSync(target)) throw new BackupError(`${target} already exists; back up to a new file`);
  if (!fs.existsSync(path.dirname(target))) throw new BackupError(`no directory ${path.dirname(target)}`);
  const snapshot = location.databaseUrl ? await postgresSnapshot(location.databaseUrl) : await sqliteSnapshot(location, `${target}.partial.sqlite`);
  try {
    return await writeBackup(snapshot, target, now);
  } finally {
    await snapshot.close();
  }
}

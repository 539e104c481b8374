import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import { type Engine, MIGRATION_NAMES, MIGRATION_TABLE, migrateToLatest, migrateUpTo } from '../migrations.ts';
import { connectDatabase, type StoreLocation } from '../open.ts';
import { BACKUP_FORMAT, BackupError, type BackupHeader, decodeValue, type EndLine, parseHeader, parseLine, splitLines, type TableLine } from './format.ts';
import { BACKUP_TABLES, backupTable } from './tables.ts';

export interface RestoreSummary {
  file: string;
  engine: Engine;
  /** The engine the backup was taken from. */
  backupEngine: string;
  /** The backup's schema version, which the rows were restored at. */
  migration: string;
  /** The schema version after the restore: this release's, or the backup's with `keepSchema`. */
  migratedTo: string;
  tables: Record<string, number>;
  rows: number;
  /** Size of the backup file. */
  bytes: number;
}

/** Rows inserted per statement, and at most this much JSON text of them. */
const INSERT_ROWS = 500;
const INSERT_CHARS = 4 << 20;

const damaged = (why: string) => new BackupError(`not a complete Drawbridge backup: ${why}`);

/** The backup file's lines; a damaged or cut gzip stream is a BackupError. */
async function* backupLines(file: string): AsyncGenerator<string> {
  const decompressed = pipeline(fs.createReadStream(file), zlib.createGunzip(), () => {});
  try {
    yield* splitLines(decompressed);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('Z_')) throw damaged((error as Error).message);
    throw error;
  } finally {
    decompressed.destroy();
  }
}

function checkSchemaVersion(header: BackupHeader): void {
  const latest = MIGRATION_NAMES[MIGRATION_NAMES.length - 1]!;
  if (header.migration > latest) {
    throw new BackupError(`the backup's schema (${header.migration}) is newer than this release's (${latest}): upgrade Drawbridge first, then restore`);
  }
  if (!MIGRATION_NAMES.includes(header.migration)) throw damaged(`its schema version ${header.migration} is not one this release knows`);
  const unknown = header.tables.find((t) => !backupTable(t.name));
  if (unknown) throw damaged(`it holds a table this release does not know (${unknown.name})`);
}

async function tablesIn(db: Kysely<any>, engine: Engine): Promise<Set<string>> {
  const names =
    engine === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db);
  return new Set(names.rows.map((r) => r.name));
}

async function schemaVersion(db: Kysely<any>, present: Set<string>): Promise<string | null> {
  if (!present.has(MIGRATION_TABLE)) return null;
  const latest = await db.selectFrom(MIGRATION_TABLE).select('name').orderBy('name', 'desc').limit(1).executeTakeFirst();
  return (latest?.name as string | undefined) ?? null;
}

async function refuseUnlessEmpty(db: Kysely<any>, engine: Engine): Promise<void> {
  const present = await tablesIn(db, engine);
  const holding: string[] = [];
  for (const table of BACKUP_TABLES.filter((t) => present.has(t.name))) {
    if (await db.selectFrom(table.name).select(sql`1`.as('one')).limit(1).executeTakeFirst()) holding.push(table.name);
  }
  if (holding.length > 0) {
    throw new BackupError(`the target database already holds data (in ${holding.join(', ')}); restore only into an empty database`);
  }
}

/** One table being restored: its rows go in in batches; its self-references once all are in. */
class TableLoad {
  readonly table: NonNullable<ReturnType<typeof backupTable>>;
  inserted = 0;
  private pending: Record<string, unknown>[] = [];
  private pendingChars = 0;
  private readonly deferred: Array<{ column: string; key: unknown; value: unknown }> = [];

  private readonly trx: Kysely<any>;
  readonly columns: string[];
  readonly expectedRows: number;
  constructor(trx: Kysely<any>, name: string, columns: string[], expectedRows: number) {
    this.trx = trx;
    this.columns = columns;
    this.expectedRows = expectedRows;
    this.table = backupTable(name)!;
  }

  async add(line: string): Promise<void> {
    const values = parseLine(line);
    if (!Array.isArray(values) || values.length !== this.columns.length) throw damaged(`a row of ${this.table.name} does not match its columns`);
    const row: Record<string, unknown> = {};
    this.columns.forEach((column, i) => (row[column] = decodeValue(values[i])));
    for (const column of this.table.selfReferences ?? []) {
      if (row[column] === null || row[column] === undefined) continue;
      this.deferred.push({ column, key: row[this.table.key[0]!], value: row[column] });
      row[column] = null;
    }
    this.pending.push(row);
    this.pendingChars += line.length;
    if (this.pending.length >= INSERT_ROWS || this.pendingChars >= INSERT_CHARS) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    await this.trx.insertInto(this.table.name).values(this.pending).execute();
    this.inserted += this.pending.length;
    this.pending = [];
    this.pendingChars = 0;
  }

  async finish(): Promise<void> {
    await this.flush();
    for (const { column, key, value } of this.deferred) {
      await this.trx.updateTable(this.table.name).set(column, value).where(this.table.key[0]!, '=', key).execute();
    }
    const counted = await this.trx.selectFrom(this.table.name).select((eb) => eb.fn.countAll().as('rows')).executeTakeFirstOrThrow();
    if (this.inserted !== this.expectedRows || Number(counted.rows) !== this.expectedRows) {
      throw damaged(`table ${this.table.name} has ${this.inserted} rows where its header says ${this.expectedRows}`);
    }
  }
}

/** Reads the rows after the header into the transaction, checking them against the header as it goes. */
async function loadRows(trx: Kysely<any>, header: BackupHeader, lines: AsyncIterator<string>): Promise<void> {
  let current: TableLoad | null = null;
  let next = 0;
  for (let result = await lines.next(); !result.done; result = await lines.next()) {
    const line = result.value;
    if (line.startsWith('[')) {
      if (!current) throw damaged('a row comes before its table');
      await current.add(line);
      continue;
    }
    const marker = parseLine(line) as Partial<TableLine & EndLine>;
    await current?.finish();
    if (marker.end === BACKUP_FORMAT) {
      if (next !== header.tables.length) throw damaged(`it ends before table ${header.tables[next]!.name}`);
      if (marker.rows !== header.tables.reduce((sum, t) => sum + t.rows, 0)) throw damaged('its closing line counts other rows than its header');
      if ((await lines.next()).done !== true) throw damaged('text follows its last line');
      return;
    }
    const expected = header.tables[next];
    if (!expected || marker.table !== expected.name || !Array.isArray(marker.columns)) throw damaged('its tables are not the ones its header names');
    current = new TableLoad(trx, expected.name, marker.columns, expected.rows);
    next += 1;
  }
  throw damaged('it is cut short (no closing line)');
}

async function checkIntegrity(trx: Kysely<any>, engine: Engine): Promise<void> {
  if (engine !== 'sqlite') return;
  const broken = await sql<{ table: string }>`pragma foreign_key_check`.execute(trx);
  if (broken.rows.length > 0) throw new BackupError(`the restored rows break a foreign key (in ${broken.rows[0]!.table}); nothing was restored`);
  const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(trx);
  if (integrity.rows[0]?.integrity_check !== 'ok') throw new BackupError(`the restored database fails SQLite's integrity check; nothing was restored`);
}

/**
 * Restores a backup into the configured database, which must be empty: the
 * schema is brought to the backup's version, every row is inserted and checked
 * (counts against the header; on SQLite also foreign keys and integrity) in one
 * transaction, then the schema is migrated to this release's version, unless
 * `keepSchema` (for an older release, which cannot open a newer schema).
 */
export async function restoreDatabase(location: StoreLocation, file: string, options: { keepSchema?: boolean } = {}): Promise<RestoreSummary> {
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new BackupError(`no file ${source}`);
  const lines = backupLines(source);
  try {
    const header = parseHeader((await lines.next()).value ?? undefined);
    checkSchemaVersion(header);
    const { db, engine } = connectDatabase(location) as { db: Kysely<any>; engine: Engine };
    try {
      const current = await schemaVersion(db, await tablesIn(db, engine));
      if (current && current > header.migration) {
        throw new BackupError(`the target database's schema (${current}) is newer than the backup's (${header.migration}); restore into a new, empty database`);
      }
      await refuseUnlessEmpty(db, engine);
      await migrateUpTo(db, engine, header.migration);
      await db.transaction().execute(async (trx) => {
        await refuseUnlessEmpty(trx, engine);
        await loadRows(trx, header, lines);
        await checkIntegrity(trx, engine);
      });
      if (!options.keepSchema) await migrateToLatest(db, engine);
    } finally {
      await db.destroy();
    }
    return {
      file: source,
      engine,
      backupEngine: header.engine,
      migration: header.migration,
      migratedTo: options.keepSchema ? header.migration : MIGRATION_NAMES[MIGRATION_NAMES.length - 1]!,
      tables: Object.fromEntries(header.tables.map((t) => [t.name, t.rows])),
      rows: header.tables.reduce((sum, t) => sum + t.rows, 0),
      bytes: fs.statSync(source).size,
    };
  } finally {
    await lines.return(undefined);
  }
}

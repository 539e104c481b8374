/**
 * The backup file: gzip-compressed JSON lines, the same for both engines.
 *
 *   {"format":"drawbridge-backup","formatVersion":1,"engine":"sqlite","migration":"0008_sharing","createdAt":"…","tables":[{"name":"users","rows":2},…]}
 *   {"table":"users","columns":["id","email",…]}
 *   ["4f0c…","ada@example.com",…]           one line per row, values in column order
 *   …                                        the next table's line, its rows, …
 *   {"end":"drawbridge-backup","rows":123}
 *
 * Values are JSON strings, numbers and nulls as the database holds them;
 * binary values (revision payloads) are {"base64":"…"}. The header's counts
 * and the closing line let a restore tell a complete file from a cut one.
 */
export const BACKUP_FORMAT = 'drawbridge-backup';
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  /** The engine the backup was taken from (a backup restores into either). */
  engine: 'sqlite' | 'postgres';
  /** The last migration the database had applied: its schema version. */
  migration: string;
  createdAt: string;
  tables: Array<{ name: string; rows: number }>;
}

export interface TableLine {
  table: string;
  columns: string[];
}

export interface EndLine {
  end: typeof BACKUP_FORMAT;
  rows: number;
}

/** A backup or restore that cannot go on: one line the operator reads. */
export class BackupError extends Error {}

/** A value as written on a row line. */
export function encodeValue(value: unknown): unknown {
  if (value instanceof Uint8Array) return { base64: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  if (typeof value === 'bigint') return Number(value);
  return value;
}

/** A value of a row line as the database takes it. */
export function decodeValue(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { base64?: unknown }).base64 === 'string') {
    return Buffer.from((value as { base64: string }).base64, 'base64');
  }
  return value;
}

const damaged = (why: string) => new BackupError(`not a complete Drawbridge backup: ${why}`);

export function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw damaged('a line is not JSON');
  }
}

/** The header line, checked for what this release can read. */
export function parseHeader(line: string | undefined): BackupHeader {
  if (line === undefined) throw damaged('the file is empty');
  const header = parseLine(line) as Partial<BackupHeader>;
  if (header?.format !== BACKUP_FORMAT) throw damaged('its first line is not a backup header');
  if (header.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw new BackupError(`the backup is in format version ${String(header.formatVersion)}; this release reads version ${BACKUP_FORMAT_VERSION}: restore it with the release that wrote it`);
  }
  const tablesValid = Array.isArray(header.tables) && header.tables.every((t) => typeof t?.name === 'string' && Number.isSafeInteger(t.rows) && t.rows >= 0);
  if (typeof header.migration !== 'string' || !tablesValid) throw damaged('its header is incomplete');
  return header as BackupHeader;
}

/** The text lines of a stream of bytes (UTF-8, split at `\n`). */
export async function* splitLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  for await (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, end));
      yield Buffer.concat(pending).toString('utf8');
      pending = [];
      start = end + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) yield Buffer.concat(pending).toString('utf8');
}

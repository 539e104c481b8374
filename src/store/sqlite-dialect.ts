/**
 * SQLite behind Kysely with its writes off the event loop.
 *
 * better-sqlite3 is synchronous: a statement runs on the thread that calls
 * it, and a commit with `synchronous = FULL` waits for the disk. On the event
 * loop that wait stalls every request and every live message in the process
 * (a live room writing a large scene every 200 ms held the loop about 30 % of
 * the time). So the database has two connections:
 *
 * - the writing one, on a thread of its own (sqlite-thread.mjs), runs every
 *   transaction and every statement that may write, one at a time;
 * - the reading one, here, runs selects that are not part of a transaction,
 *   at once: WAL lets them read the last committed state while
 *   the writer works, and they are quick (indexed lookups), so the round trip
 *   to a thread would cost more than it saves.
 *
 * A transaction holds the writer from `begin` to its end (one writer at a
 * time, as SQLite allows); a lone write waits for it like any other.
 */
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';

export interface SqliteThreadConfig {
  file: string;
  /** Run on both connections as they open, in order (`journal_mode = WAL` first). */
  pragmas: readonly string[];
  /** Prepared statements each connection keeps, by SQL text (Kysely prepares every query anew, which costs more than running it). */
  statementCacheSize: number;
  /** Opens the reading connection on this thread (with the same pragmas). */
  open(file: string): SQLite.Database;
}

type Reply = { id: number; rows?: unknown[]; changes?: number; lastInsertRowid?: number | bigint; error?: { name: string; message: string; code?: string } };

/** A Buffer comes back from the thread as a plain Uint8Array: made a Buffer again, as the reading connection returns it. */
function asBuffers(rows: unknown[]): unknown[] {
  for (const row of rows as Record<string, unknown>[]) {
    for (const key in row) {
      const value = row[key];
      if (value instanceof Uint8Array && !Buffer.isBuffer(value)) row[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  }
  return rows;
}

/** The writing connection's thread, started on first use and again if it ever dies. */
class WriterThread {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  private nextId = 1;

  private readonly config: SqliteThreadConfig;
  constructor(config: SqliteThreadConfig) {
    this.config = config;
  }

  private start(): Promise<void> {
    const worker = new Worker(new URL('./sqlite-thread.mjs', import.meta.url), {
      workerData: { file: this.config.file, pragmas: this.config.pragmas, statementCacheSize: this.config.statementCacheSize },
      // The parent's preloads (a test runner's TypeScript loader) are not the thread's business: it is plain JavaScript.
      execArgv: [],
    });
    this.worker = worker;
    // Held while it starts and while a statement is out (see send): an idle writer never keeps the process alive.
    this.ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (message: Reply & { ready?: boolean }) => {
        if (message.ready) {
          if (this.pending.size === 0) worker.unref();
          return resolve();
        }
        const waiting = this.pending.get(message.id);
        if (!waiting) return;
        this.pending.delete(message.id);
        if (this.pending.size === 0) worker.unref();
        waiting.resolve(message);
      });
      const died = (error: Error) => {
        if (this.worker !== worker) return;
        this.worker = null;
        this.ready = null;
        reject(error);
        for (const waiting of this.pending.values()) waiting.reject(error);
        this.pending.clear();
      };
      worker.on('error', died);
      worker.on('exit', (code) => died(Object.assign(new Error(`the SQLite writer thread stopped (exit code ${code})`), { code: 'SQLITE_IOERR_WRITER_STOPPED' })));
    });
    return this.ready;
  }

  async send(message: { sql: string; parameters: readonly unknown[] } | { close: true }): Promise<Reply> {
    if (this.worker === null) await this.start();
    else await this.ready;
    const worker = this.worker!;
    const id = this.nextId++;
    const reply = new Promise<Reply>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    if (this.pending.size === 1) worker.ref();
    worker.postMessage({ id, ...message });
    return reply;
  }

  async close(): Promise<void> {
    if (this.worker === null) return;
    const worker = this.worker;
    // The database closes first (its last checkpoint done), then the thread goes.
    await this.send({ close: true }).catch(() => undefined);
    this.worker = null;
    await worker.terminate();
  }
}

/** Kysely's one lock around SQLite's one writer. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();

  async lock(): Promise<() => void> {
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise((resolve) => (release = resolve));
    await previous;
    return release;
  }
}

class SqliteThreadDriver implements Driver {
  private reader: SQLite.Database | null = null;
  private readonly statements = new Map<string, SQLite.Statement>();
  readonly writer: WriterThread;
  readonly writeLock = new Mutex();

  private readonly config: SqliteThreadConfig;
  constructor(config: SqliteThreadConfig) {
    this.config = config;
    this.writer = new WriterThread(config);
  }

  async init(): Promise<void> {
    // The writer first: it creates the file and puts it in WAL mode before anything reads it.
    await this.writer.send({ sql: 'select 1', parameters: [] });
    this.reader = this.config.open(this.config.file);
  }

  /** A select prepared on the reading connection. */
  prepare(sqlText: string): SQLite.Statement {
    let statement = this.statements.get(sqlText);
    if (!statement) {
      if (this.statements.size >= this.config.statementCacheSize) this.statements.clear();
      statement = this.reader!.prepare(sqlText);
      this.statements.set(sqlText, statement);
    }
    return statement;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new ThreadConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const held = connection as ThreadConnection;
    held.release = await this.writeLock.lock();
    // Sent without waiting for its answer: the thread takes messages in order, so the next statement
    // follows it, and its answer (an error included) is awaited with that statement's. One round trip fewer.
    held.begun = held.onWriter('begin', []);
    held.begun.catch(() => undefined);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quotedName(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quotedName(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quotedName(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as ThreadConnection).unlock();
  }

  async destroy(): Promise<void> {
    const release = await this.writeLock.lock();
    try {
      await this.writer.close();
    } finally {
      release();
      this.reader?.close();
      this.reader = null;
    }
  }
}

const quotedName = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** One use of the database: reads at once on the reading connection, writes and transactions on the writer. */
class ThreadConnection implements DatabaseConnection {
  /** Set while this connection holds the writer (a transaction). */
  release: (() => void) | null = null;
  /** The transaction's `begin`, sent and not yet answered. */
  begun: Promise<unknown> | null = null;

  private readonly driver: SqliteThreadDriver;
  constructor(driver: SqliteThreadDriver) {
    this.driver = driver;
  }

  unlock(): void {
    const release = this.release;
    this.release = null;
    release?.();
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { sql: sqlText, parameters, query } = compiledQuery;
    if (this.release === null) {
      // A select read at once; anything else (raw SQL included) is the writer's, which also has the last word on errors.
      if (SelectQueryNode.is(query)) return { rows: this.driver.prepare(sqlText).all(parameters as unknown[]) as R[] };
      const release = await this.driver.writeLock.lock();
      try {
        return await this.onWriter<R>(sqlText, parameters);
      } finally {
        release();
      }
    }
    const begun = this.begun;
    this.begun = null;
    const result = this.onWriter<R>(sqlText, parameters);
    if (begun) {
      result.catch(() => undefined);
      await begun;
    }
    return result;
  }

  async onWriter<R>(sqlText: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    const reply = await this.driver.writer.send({ sql: sqlText, parameters });
    if (reply.error) throw Object.assign(new Error(reply.error.message), { name: reply.error.name, code: reply.error.code });
    if (reply.rows) return { rows: asBuffers(reply.rows) as R[] };
    return {
      rows: [],
      ...(reply.changes === undefined ? {} : { numAffectedRows: BigInt(reply.changes) }),
      ...(reply.lastInsertRowid === undefined ? {} : { insertId: BigInt(reply.lastInsertRowid) }),
    };
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const result = await this.executeQuery<R>(compiledQuery);
    for (const row of result.rows) yield { rows: [row] };
  }
}

export class SqliteThreadDialect implements Dialect {
  private readonly config: SqliteThreadConfig;
  constructor(config: SqliteThreadConfig) {
    this.config = config;
  }

  createDriver(): Driver {
    return new SqliteThreadDriver(this.config);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

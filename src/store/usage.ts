/**
 * What the database is doing, for the metrics: the queries run and failed
 * since the store opened, and PostgreSQL's connection pool. Counted at the
 * store's edge (Kysely's log of every query, the pool's events); nothing here
 * touches a query's result.
 */

/** Why a query failed: the database was busy or locked, unreachable, refused a constraint, or anything else. */
export type QueryErrorKind = 'busy' | 'connection' | 'constraint' | 'other';

export interface StoreUsage {
  /** PostgreSQL's connection pool now; absent on SQLite, which has one connection. */
  pool?: { max: number; total: number; idle: number; waiting: number };
  /** Queries run, answered or failed. */
  queries: number;
  errors: Record<QueryErrorKind, number>;
}

/** SQLSTATEs and driver codes of a database that is busy with other work: a lock, a deadlock, a serialization conflict. */
const BUSY = /^(SQLITE_BUSY|SQLITE_LOCKED)|^(40001|40P01|55P03)$/;
/** A database that cannot be reached, or dropped the connection (PostgreSQL's class 08 and shutdowns, sockets, SQLite's I/O). */
const CONNECTION = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|08...|57P0[123]|SQLITE_IOERR.*|SQLITE_CANTOPEN.*)$/;
/** A constraint refused the write (PostgreSQL's class 23, SQLite's SQLITE_CONSTRAINT_*). */
const CONSTRAINT = /^(23...|SQLITE_CONSTRAINT.*)$/;

function queryErrorKind(error: unknown): QueryErrorKind {
  const code = (error as { code?: unknown } | null)?.code;
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof code === 'string') {
    if (BUSY.test(code)) return 'busy';
    if (CONNECTION.test(code)) return 'connection';
    if (CONSTRAINT.test(code)) return 'constraint';
  }
  if (typeof message === 'string' && /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message)) return 'connection';
  return 'other';
}

/** The running counts of queries and their failures, by kind. */
export class QueryCounts {
  queries = 0;
  readonly errors: Record<QueryErrorKind, number> = { busy: 0, connection: 0, constraint: 0, other: 0 };

  query(): void {
    this.queries += 1;
  }

  failed(error: unknown): void {
    this.queries += 1;
    this.errors[queryErrorKind(error)] += 1;
  }

  /** A connection lost outside any query (an idle PostgreSQL connection): a connection error, not a query. */
  lostConnection(): void {
    this.errors.connection += 1;
  }
}

import type { Compilable, Kysely, Transaction } from 'kysely';
import type { Engine } from '../migrations.ts';
import type { Database } from '../schema.ts';

/**
 * What an aggregate's SQL runs on: the store's database, or the transaction of
 * a unit of work. The same aggregate code serves both.
 */
export interface SqlScope {
  readonly db: Kysely<Database>;
  readonly engine: Engine;
  /**
   * Runs `work` atomically: in a transaction of its own on the store's
   * database, inside the unit of work's transaction when the scope is one.
   */
  atomic<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  /**
   * Runs `effect` (memory that mirrors the database, e.g. a cache) once what it
   * reflects is committed: at once outside a unit of work, after the commit
   * inside one, and never if the unit of work is rolled back.
   */
  afterCommit(effect: () => void): void;
}

/**
 * The store's own scope. A transaction is Kysely's: on SQLite the one
 * connection is held for the whole transaction, so transactions run one after
 * another; on PostgreSQL it runs at the default isolation (read committed), and
 * what must not race takes row locks (`for update`).
 */
export function rootScope(db: Kysely<Database>, engine: Engine): SqlScope {
  return { db, engine, atomic: (work) => db.transaction().execute(work), afterCommit: (effect) => effect() };
}

/** A unit of work's scope: everything runs in `trx`; effects wait in `effects` for the commit. */
export function transactionScope(trx: Transaction<Database>, engine: Engine, effects: (() => void)[]): SqlScope {
  return { db: trx, engine, atomic: (work) => work(trx), afterCommit: (effect) => void effects.push(effect) };
}

const PARAM = '\u0000param:';
/** A named placeholder for a query compiled once (see `prepared`). */
export const param = (name: string) => `${PARAM}${name}`;

/**
 * Compiles a query once and runs it with named values in place of `param(name)`
 * placeholders, on the store's database or a transaction: hot-path queries skip
 * Kysely's per-call building and compiling.
 */
export function prepared<Row>(query: Compilable<Row>) {
  const compiled = query.compile();
  return async (db: Kysely<Database>, values: Record<string, unknown>): Promise<Row[]> => {
    const parameters = compiled.parameters.map((p) => (typeof p === 'string' && p.startsWith(PARAM) ? values[p.slice(PARAM.length)] : p));
    const result = await db.executeQuery<Row>({ ...compiled, parameters });
    return result.rows;
  };
}

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

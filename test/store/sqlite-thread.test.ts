import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { Kysely } from 'kysely';
import { openSqliteDatabase } from '../../src/store/open.ts';
import { SqliteThreadDialect } from '../../src/store/sqlite-dialect.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-sqlite-thread-'));
describe('store/sqlite-thread', () => {
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  interface Tables {
    notes: { id: string; body: string; payload: Buffer | null };
  }

  let opened = 0;
  async function database(): Promise<Kysely<Tables>> {
    const file = path.join(dataDir, `db-${++opened}.sqlite`);
    const db = new Kysely<Tables>({
      dialect: new SqliteThreadDialect({ file, pragmas: ['journal_mode = WAL', 'synchronous = FULL', 'busy_timeout = 5000'], statementCacheSize: 8, open: openSqliteDatabase }),
    });
    await db.schema.createTable('notes').addColumn('id', 'text', (c) => c.primaryKey()).addColumn('body', 'text', (c) => c.notNull()).addColumn('payload', 'blob').execute();
    return db;
  }

  describe('SQLite with its writes on a thread of their own', () => {
    test('a write waiting for the database lock leaves the event loop free, and goes on once the lock is let go', async () => {
      const db = await database();
      const file = path.join(dataDir, `db-${opened}.sqlite`);
      const other = openSqliteDatabase(file);
      try {
        other.exec('begin immediate');
        const writing = db.insertInto('notes').values({ id: 'a', body: 'first', payload: null }).execute();
        // On this thread the write would wait out its whole busy timeout here and fail with SQLITE_BUSY,
        // the timer and the commit below never running meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 50));
        other.exec('commit');
        await writing;
        assert.deepEqual(await db.selectFrom('notes').select(['id', 'body']).execute(), [{ id: 'a', body: 'first' }]);
        await db.updateTable('notes').set({ body: 'second' }).where('id', '=', 'a').execute();
        assert.equal((await db.selectFrom('notes').select('body').executeTakeFirstOrThrow()).body, 'second');
      } finally {
        other.close();
        await db.destroy();
      }
    });

    test('a read is answered while a transaction holds the writer, and sees only what was committed', async () => {
      const db = await database();
      try {
        await db.insertInto('notes').values({ id: 'a', body: 'committed', payload: null }).execute();
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let inTransaction!: () => void;
        const started = new Promise<void>((resolve) => (inTransaction = resolve));
        const transaction = db.transaction().execute(async (trx) => {
          await trx.updateTable('notes').set({ body: 'uncommitted' }).where('id', '=', 'a').execute();
          assert.equal((await trx.selectFrom('notes').select('body').executeTakeFirstOrThrow()).body, 'uncommitted');
          inTransaction();
          await held;
        });
        await started;
        // With one connection this select would wait for the transaction, which waits for it: it would never answer.
        assert.equal((await db.selectFrom('notes').select('body').executeTakeFirstOrThrow()).body, 'committed');
        release();
        await transaction;
        assert.equal((await db.selectFrom('notes').select('body').executeTakeFirstOrThrow()).body, 'uncommitted');
      } finally {
        await db.destroy();
      }
    });

    test('a failed transaction is rolled back whole, and the writer takes the next one', async () => {
      const db = await database();
      try {
        await assert.rejects(
          db.transaction().execute(async (trx) => {
            await trx.insertInto('notes').values({ id: 'b', body: 'half', payload: null }).execute();
            await trx.insertInto('notes').values({ id: 'b', body: 'again', payload: null }).execute();
          }),
          (error: { code?: string }) => error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY',
        );
        assert.deepEqual(await db.selectFrom('notes').selectAll().execute(), []);
        await db.insertInto('notes').values({ id: 'c', body: 'after', payload: null }).execute();
        assert.equal((await db.selectFrom('notes').select('id').execute()).length, 1);
      } finally {
        await db.destroy();
      }
    });

    test('blobs cross the thread as Buffers, byte for byte, both ways', async () => {
      const db = await database();
      try {
        const payload = Buffer.from([0, 1, 2, 250, 255, 0]);
        await db.insertInto('notes').values({ id: 'p', body: 'blob', payload }).execute();
        const read = await db.selectFrom('notes').select('payload').executeTakeFirstOrThrow();
        assert.ok(Buffer.isBuffer(read.payload));
        assert.deepEqual(read.payload, payload);
        // Inside a transaction the select runs on the writer, whose rows come back across the thread.
        const inside = await db.transaction().execute((trx) => trx.selectFrom('notes').select('payload').executeTakeFirstOrThrow());
        assert.ok(Buffer.isBuffer(inside.payload));
        assert.deepEqual(inside.payload, payload);
      } finally {
        await db.destroy();
      }
    });

    test('what was written is on disk when the database is opened afresh after destroy', async () => {
      const db = await database();
      const file = path.join(dataDir, `db-${opened}.sqlite`);
      await db.insertInto('notes').values({ id: 'd', body: 'kept', payload: null }).execute();
      await db.destroy();
      const again = openSqliteDatabase(file);
      try {
        assert.deepEqual(again.prepare('select id, body from notes').all(), [{ id: 'd', body: 'kept' }]);
      } finally {
        again.close();
      }
    });
  });
});

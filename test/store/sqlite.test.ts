import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { Kysely, type LogEvent, SqliteDialect } from 'kysely';
import type { OwnedDiagramsQuery } from '../../src/store/diagrams.ts';
import { openSqliteDatabase, openStore, SQLITE_FILE_NAME } from '../../src/store/open.ts';
import type { Database } from '../../src/store/schema.ts';
import { SqlStore } from '../../src/store/sql-store.ts';
import { defineStoreContract } from './contract/index.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-store-sqlite-'));
describe('store/sqlite', () => {
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  // Every store gets its own database file in a fresh directory.
  defineStoreContract('sqlite', () => openStore({ dataDir: fs.mkdtempSync(path.join(root, 'db-')) }));
});

describe('store/sqlite: an owner’s listing reads its index, not its diagrams', () => {
  /**
   * The plans SQLite picks for the statements the store itself runs for `use`: a migrated database is
   * opened again with a log that keeps each statement, and each is explained on that connection.
   */
  const plansOf = async (use: (store: SqlStore) => Promise<unknown>): Promise<string[]> => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-store-plan-'));
    await (await openStore({ dataDir })).close();
    const database = openSqliteDatabase(path.join(dataDir, SQLITE_FILE_NAME));
    const statements: Array<{ sql: string; parameters: readonly unknown[] }> = [];
    const keep = (event: LogEvent) => {
      statements.push(event.query);
    };
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }), log: keep });
    const store = new SqlStore(db, 'sqlite');
    try {
      await use(store);
      assert.ok(statements.length > 0, 'the store ran its query');
      return statements.map(({ sql: text, parameters }) =>
        (database.prepare(`explain query plan ${text}`).all(...(parameters as unknown[])) as Array<{ detail: string }>).map((row) => row.detail).join('; '),
      );
    } finally {
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };
  const listing = (filter: Partial<OwnedDiagramsQuery>) => (store: SqlStore) => store.diagrams.listOwned({ ownerId: 'o', trashed: false, after: null, limit: 50, ...filter });
  for (const [what, use] of [
    ['a title search', listing({ titleContains: 'x' })],
    ['the starred', listing({ starred: true })],
    ['the trash', listing({ trashed: true })],
    ['a folder', listing({ folderId: 'f' })],
    ['the next page', listing({ after: { createdAt: '2026-01-01T00:00:00.000Z', id: 'd' } })],
  ] as const) {
    test(`${what} walks diagrams_owner_listing_filters in order, with no sort`, async () => {
      for (const plan of await plansOf(use)) {
        assert.match(plan, /USING (COVERING )?INDEX diagrams_owner_listing_filters/, plan);
        assert.doesNotMatch(plan, /TEMP B-TREE/, plan);
      }
    });
  }
  test('the dashboard’s counts read the index alone', async () => {
    for (const plan of await plansOf((store) => store.diagrams.countOwned('o'))) assert.match(plan, /USING COVERING INDEX diagrams_owner_listing_filters/, plan);
  });
});

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openStore } from '../../src/store/open.ts';
import { defineStoreContract } from './contract/index.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-store-sqlite-'));
describe('store/sqlite', () => {
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  // Every store gets its own database file in a fresh directory.
  defineStoreContract('sqlite', () => openStore({ dataDir: fs.mkdtempSync(path.join(root, 'db-')) }));
});

describe('store/sqlite: an owner’s listing reads its index, not its diagrams', () => {
  /** The plan SQLite picks for a statement, its lines joined. */
  const planOf = async (statement: string) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-store-plan-'));
    const store = await openStore({ dataDir });
    try {
      const { rows } = await sql.raw<{ detail: string }>(`explain query plan ${statement}`).execute(store.db);
      return rows.map((row) => row.detail).join('; ');
    } finally {
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };
  // The shapes of SqlDiagrams.listOwned's and countOwned's queries (src/store/sql/diagrams.ts).
  const listing = (filter: string) =>
    `select d.id, d.title, d.updated_at from diagrams as d where d.owner_id = 'o' and ${filter} order by d.created_at desc, d.id desc limit 50`;
  for (const [what, statement] of [
    ['a title search', listing(`d.deleted_at is null and instr(d.title_key, 'x') > 0`)],
    ['the starred', listing('d.deleted_at is null and d.starred = 1')],
    ['the trash', listing('d.deleted_at is not null')],
    ['a folder', listing(`d.deleted_at is null and d.folder_id = 'f'`)],
  ] as const) {
    test(`${what} walks diagrams_owner_listing_filters in order, with no sort`, async () => {
      const plan = await planOf(statement);
      assert.match(plan, /USING (COVERING )?INDEX diagrams_owner_listing_filters/, plan);
      assert.doesNotMatch(plan, /TEMP B-TREE/, plan);
    });
  }
  test('the dashboard’s counts read the index alone', async () => {
    const plan = await planOf(`select folder_id, starred, case when deleted_at is null then 0 else 1 end as trashed, count(*) from diagrams where owner_id = 'o' group by folder_id, starred, trashed`);
    assert.match(plan, /USING COVERING INDEX diagrams_owner_listing_filters/, plan);
  });
});

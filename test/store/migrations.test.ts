import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { MIGRATION_NAMES } from '../../src/store/migrations.ts';
import { openStore } from '../../src/store/open.ts';
import { freshPostgresDatabase, skipWithoutPostgres } from '../helpers/postgres.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-migrations-'));
describe('store/migrations', () => {
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  describe('migrations', () => {
    test('migration names sort in the order they were written, so a name tells which schema is newer', () => {
      assert.deepEqual([...MIGRATION_NAMES].sort(), MIGRATION_NAMES);
      for (const name of MIGRATION_NAMES) assert.match(name, /^\d{4}_[a-z_]+$/);
    });

    test('SQLite counts an owner\'s active diagrams from an index alone, without reading their rows (and scenes)', async () => {
      const store = await openStore({ dataDir: fs.mkdtempSync(path.join(dataDir, 'count-')) });
      try {
        const plan = await sql<{ detail: string }>`explain query plan select count(*) from diagrams where owner_id = ${'u1'} and deleted_at is null`.execute(store.db);
        assert.match(plan.rows.map((r) => r.detail).join('\n'), /USING COVERING INDEX diagrams_owner_active/);
      } finally {
        await store.close();
      }
    });

    test('instances starting together on a new PostgreSQL database apply each migration once (the migrator takes an advisory lock)', { skip: skipWithoutPostgres }, async () => {
      const databaseUrl = await freshPostgresDatabase();
      const stores = await Promise.all(Array.from({ length: 4 }, () => openStore({ dataDir, databaseUrl })));
      try {
        const applied = await stores[0]!.db.selectFrom('kysely_migration' as never).select('name' as never).orderBy('name' as never).execute();
        assert.deepEqual(applied.map((r) => (r as { name: string }).name), MIGRATION_NAMES);
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    });
  });
});

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { BackupError } from '../../../src/store/backup/format.ts';
import { restoreDatabase } from '../../../src/store/backup/restore.ts';
import type { Snapshot } from '../../../src/store/backup/snapshot.ts';
import { BACKUP_TABLES, TABLES_NOT_BACKED_UP } from '../../../src/store/backup/tables.ts';
import { backupDatabase, writeBackup } from '../../../src/store/backup/write-backup.ts';
import { MIGRATION_NAMES, migrateUpTo } from '../../../src/store/migrations.ts';
import { connectDatabase, openStore, type StoreLocation } from '../../../src/store/open.ts';
import { ENGINES, type EngineUnderTest, EVERY_BYTE, removeScratch, rowCount, scratchDir, seedEveryTable, tableContents } from './fixtures.ts';

describe('store/backup/backup', () => {
  after(removeScratch);

  const NOW = new Date('2026-01-02T03:04:05.000Z');
  const LATEST = MIGRATION_NAMES[MIGRATION_NAMES.length - 1]!;

  /** Runs `body` on the location's database as it is (not migrated further). */
  async function withDatabase<T>(location: StoreLocation, body: (db: Kysely<any>) => Promise<T>): Promise<T> {
    const { db } = connectDatabase(location);
    try {
      return await body(db);
    } finally {
      await db.destroy();
    }
  }

  async function seededLocation(freshLocation: () => Promise<StoreLocation>): Promise<StoreLocation> {
    const location = await freshLocation();
    const store = await openStore(location);
    try {
      await seedEveryTable(store.db);
    } finally {
      await store.close();
    }
    return location;
  }

  const backupFile = () => path.join(scratchDir(), 'drawbridge.backup.gz');

  /** The backup's lines, edited by `change`, written back compressed to a new file. */
  function rewritten(file: string, change: (lines: string[]) => string[]): string {
    const lines = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8').trimEnd().split('\n');
    const out = backupFile();
    fs.writeFileSync(out, zlib.gzipSync(`${change(lines).join('\n')}\n`));
    return out;
  }

  async function assertRestoreRefused(location: StoreLocation, file: string, message: RegExp): Promise<void> {
    await assert.rejects(restoreDatabase(location, file), (error: Error) => error instanceof BackupError && message.test(error.message) && !error.message.includes('\n'));
    assert.equal(await withDatabase(location, rowCount), 0, 'nothing was restored');
  }

  for (const engine of ENGINES) {
    describe(`backup and restore on ${engine.name}`, { skip: engine.skip }, () => {
      test('a restore gives back every table row for row, binary payloads byte for byte', async () => {
        const source = await seededLocation(engine.freshLocation);
        const file = backupFile();
        const backedUp = await backupDatabase(source, file, NOW);
        assert.equal(backedUp.engine, engine.name);
        assert.equal(backedUp.migration, LATEST);
        assert.equal(backedUp.tables.revisions, 3);
        assert.equal(backedUp.bytes, fs.statSync(file).size);
        assert.deepEqual(fs.readdirSync(path.dirname(file)), [path.basename(file)], 'no working file is left beside the backup');
        assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'the backup is readable by its owner alone');

        const target = await engine.freshLocation();
        const restored = await restoreDatabase(target, file);
        assert.deepEqual(restored.tables, backedUp.tables);
        assert.equal(restored.rows, backedUp.rows);
        assert.equal(restored.migratedTo, LATEST);

        const [before, after] = await Promise.all([withDatabase(source, (db) => tableContents(db, engine.name)), withDatabase(target, (db) => tableContents(db, engine.name))]);
        for (const table of BACKUP_TABLES) assert.deepEqual(after[table.name], before[table.name], `table ${table.name}`);
        assert.ok(after.revisions!.some((r) => (r as { payload: string }).payload === `hex:${EVERY_BYTE.toString('hex')}`), 'the binary payload came back whole');
        assert.ok(Object.values(after).every((rows) => rows.length > 0), 'every table had rows to compare');
      });

      test('every table the migrations create is backed up, or left out on purpose, and none takes its keys from a sequence', async () => {
        const location = await engine.freshLocation();
        await (await openStore(location)).close();
        await withDatabase(location, async (db) => {
          const tables =
            engine.name === 'sqlite'
              ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)
              : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db);
          const covered = new Set([...BACKUP_TABLES.map((t) => t.name), ...TABLES_NOT_BACKED_UP]);
          assert.deepEqual(tables.rows.map((r) => r.name).filter((name) => !covered.has(name)), []);
          if (engine.name === 'postgres') {
            // A restore would have to set such a sequence past the restored keys.
            const sequenced = await sql<{ column: string }>`select table_name || '.' || column_name as column from information_schema.columns
            where table_schema = current_schema() and (is_identity = 'YES' or column_default like 'nextval%')`.execute(db);
            assert.deepEqual(sequenced.rows, []);
          }
        });
      });

      test('a restore refuses a target that already holds data, and changes nothing there', async () => {
        const source = await seededLocation(engine.freshLocation);
        const file = backupFile();
        await backupDatabase(source, file, NOW);
        const before = await withDatabase(source, (db) => tableContents(db, engine.name));
        await assert.rejects(restoreDatabase(source, file), /already holds data \(in users, workspaces, .*\); restore only into an empty database/);
        assert.deepEqual(await withDatabase(source, (db) => tableContents(db, engine.name)), before);
      });

      test('a restore refuses a cut, damaged or inconsistent file and writes no row; the same database then takes a whole one', async () => {
        const file = backupFile();
        await backupDatabase(await seededLocation(engine.freshLocation), file, NOW);
        const bytes = fs.readFileSync(file);
        const target = await engine.freshLocation();

        const cut = backupFile();
        fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.8)));
        await assertRestoreRefused(target, cut, /^not a complete Drawbridge backup: unexpected end of file/);

        const flipped = backupFile();
        const damaged = Buffer.from(bytes);
        damaged[Math.floor(damaged.length / 2)]! ^= 0xff;
        fs.writeFileSync(flipped, damaged);
        await assertRestoreRefused(target, flipped, /^not a complete Drawbridge backup: /);

        const notGzip = backupFile();
        fs.writeFileSync(notGzip, 'id,email\n1,a@example.com\n');
        await assertRestoreRefused(target, notGzip, /^not a complete Drawbridge backup: incorrect header check/);

        const withoutEnd = rewritten(file, (lines) => lines.slice(0, -1));
        await assertRestoreRefused(target, withoutEnd, /cut short/);

        const rowMissing = rewritten(file, (lines) => lines.filter((line) => !line.includes('Looks <b>good</b>')));
        await assertRestoreRefused(target, rowMissing, /table comments has 0 rows where its header says 1/);

        assert.equal((await restoreDatabase(target, file)).tables.comments, 1);
      });

      test('a restore refuses a backup from a newer schema, asking for an upgrade first, and creates nothing', async () => {
        const file = backupFile();
        await backupDatabase(await seededLocation(engine.freshLocation), file, NOW);
        const future = rewritten(file, ([header, ...rest]) => [JSON.stringify({ ...JSON.parse(header!), migration: '9999_future' }), ...rest]);
        const target = await engine.freshLocation();
        await assert.rejects(restoreDatabase(target, future), /^Error: the backup's schema \(9999_future\) is newer than this release's \(0\d{3}_\w+\): upgrade Drawbridge first, then restore$/);
        if (engine.name === 'sqlite') assert.deepEqual(fs.readdirSync(target.dataDir), [], 'no database file was made');
        else assert.equal((await withDatabase(target, (db) => sql`select 1 from information_schema.tables where table_schema = current_schema()`.execute(db))).rows.length, 0);
      });

      test('a backup of an older schema is restored at that schema, then migrated (the later migrations fill in what they add), or left at it with keepSchema', async () => {
        const source = await engine.freshLocation();
        const older = MIGRATION_NAMES[MIGRATION_NAMES.indexOf('0008_sharing') - 1]!;
        await withDatabase(source, async (db) => {
          await migrateUpTo(db, engine.name, older);
          await db.insertInto('users').values([
            { id: 'u1', email: 'a@example.com', email_verified: 1, quota: 3, created_at: '2024-01-01T00:00:00.000Z', password_hash: null },
            { id: 'u2', email: 'b@example.com', email_verified: 1, quota: 3, created_at: '2024-01-01T00:00:00.000Z', password_hash: null },
          ]).execute();
          await db.insertInto('diagrams').values({ id: 'd1', owner_id: 'u1', title: 'T', title_key: 't', folder_id: null, workspace_id: null, starred: 0, elements: '[]', element_count: 0, created_at: '2024-03-04T05:06:07.000Z', updated_at: '2024-03-04T05:06:07.000Z', doc_updated_at: null, deleted_at: null }).execute();
          await db.insertInto('diagram_shares').values({ diagram_id: 'd1', user_id: 'u2', role: 'viewer' }).execute();
        });
        const file = backupFile();
        assert.equal((await backupDatabase(source, file, NOW)).migration, older);

        const target = await engine.freshLocation();
        const restored = await restoreDatabase(target, file);
        assert.deepEqual([restored.migration, restored.migratedTo], [older, LATEST]);
        const share = await withDatabase(target, (db) => db.selectFrom('diagram_shares').selectAll().executeTakeFirstOrThrow());
        // 0008_sharing dates each existing share from its diagram: it ran over the restored rows.
        assert.equal(share.created_at, '2024-03-04T05:06:07.000Z');

        const kept = await engine.freshLocation();
        assert.equal((await restoreDatabase(kept, file, { keepSchema: true })).migratedTo, older);
        const applied = await withDatabase(kept, (db) => db.selectFrom('kysely_migration').select('name').orderBy('name').execute());
        assert.deepEqual(applied.map((r) => r.name), MIGRATION_NAMES.slice(0, MIGRATION_NAMES.indexOf(older) + 1), 'with keepSchema the schema stays at the backup\'s version');
      });

      test('a restore refuses an empty target whose schema is newer than the backup', async () => {
        const source = await engine.freshLocation();
        await withDatabase(source, (db) => migrateUpTo(db, engine.name, MIGRATION_NAMES[0]!));
        const file = backupFile();
        await backupDatabase(source, file, NOW);
        const target = await engine.freshLocation();
        await (await openStore(target)).close();
        await assert.rejects(restoreDatabase(target, file), /the target database's schema \(0\d{3}_\w+\) is newer than the backup's \(0001_core\); restore into a new, empty database/);
      });

      test('a backup that fails part way leaves neither the file nor its working copy', async () => {
        const file = backupFile();
        const failing: Snapshot = {
          engine: engine.name,
          migration: LATEST,
          tables: [{ name: 'users', rows: 2 }],
          columns: async () => ['id'],
          async *batches() {
            yield [['u1']];
            throw new Error('connection lost');
          },
          close: async () => {},
        };
        await assert.rejects(writeBackup(failing, file, NOW), /connection lost/);
        assert.deepEqual(fs.readdirSync(path.dirname(file)), []);
      });

      test('a backup never replaces an existing file', async () => {
        const file = backupFile();
        fs.writeFileSync(file, 'yesterday');
        await assert.rejects(backupDatabase(await seededLocation(engine.freshLocation), file, NOW), /already exists; back up to a new file/);
        assert.equal(fs.readFileSync(file, 'utf8'), 'yesterday');
      });
    });
  }

  describe('a backup moves between engines', { skip: ENGINES[1]!.skip }, () => {
    const [sqlite, postgres] = ENGINES as [EngineUnderTest, EngineUnderTest];
    for (const [from, to] of [[sqlite, postgres], [postgres, sqlite]] as const) {
      test(`a ${from.name} backup restores into ${to.name} with every row equal`, async () => {
        const source = await seededLocation(from.freshLocation);
        const file = backupFile();
        await backupDatabase(source, file, NOW);
        const target = await to.freshLocation();
        const restored = await restoreDatabase(target, file);
        assert.deepEqual([restored.backupEngine, restored.engine], [from.name, to.name]);
        const [before, after] = await Promise.all([withDatabase(source, (db) => tableContents(db, from.name)), withDatabase(target, (db) => tableContents(db, to.name))]);
        for (const table of BACKUP_TABLES) assert.deepEqual(after[table.name], before[table.name], `table ${table.name}`);
      });
    }
  });
});

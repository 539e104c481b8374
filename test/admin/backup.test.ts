import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { connectDatabase, openStore, type StoreLocation } from '../../src/store/open.ts';
import type { SqlStore } from '../../src/store/sql-store.ts';
import { ENGINES, removeScratch, scratchDir } from '../store/backup/fixtures.ts';
import { BASELINE_REVISION, createdRevision } from '../../src/app/history/recording.ts';

describe('admin/backup', () => {
  after(removeScratch);

  const run = promisify(execFile);
  const BIN = path.resolve('bin/drawbridge-admin');

  const envFor = (location: StoreLocation) => ({ ...process.env, DATA_DIR: location.dataDir, DATABASE_URL: location.databaseUrl ?? '' });

  async function admin(location: StoreLocation, ...args: string[]): Promise<any> {
    const { stdout, stderr } = await run(BIN, args, { env: envFor(location) });
    assert.equal(stderr, '');
    const lines = stdout.trim().split('\n');
    assert.equal(lines.length, 1, 'exactly one JSON object on stdout');
    return JSON.parse(lines[0]!);
  }

  /** A diagram at version v: its title and its one element both say v, written together. */
  const elementsAt = (v: number) => JSON.stringify([{ id: `v${v}`, type: 'rectangle' }]);

  /**
   * Creates and edits diagrams until stopped, remembering each write once the
   * store has acknowledged it: `acknowledged` maps a diagram to its last
   * acknowledged version, `writes` counts them.
   */
  function startWriting(store: SqlStore, ownerId: string) {
    const acknowledged = new Map<string, number>();
    let writes = 0;
    let stopped = false;
    const writer = async (n: number) => {
      for (let i = 0; !stopped; i++) {
        const ids = [...acknowledged.keys()];
        if (i % 3 === 0 || ids.length === 0) {
          const id = randomUUID();
          const now = new Date().toISOString();
          const made = await store.diagrams.create(
            { id, ownerId, title: 'v0', folderId: null, workspaceId: null, starred: false, elementCount: 1, createdAt: now, updatedAt: now, docUpdatedAt: now, deletedAt: null, elementsJson: elementsAt(0) },
            1_000_000,
            createdRevision({ userId: ownerId, via: null }, 1),
          );
          assert.equal(made, 'created');
          acknowledged.set(id, 0);
        } else {
          // Each writer edits its own half of the diagrams, so no two edits of one diagram race.
          const mine = ids.filter((_, k) => k % 2 === n);
          const id = mine[i % mine.length] ?? ids[0]!;
          if (mine.length === 0) continue;
          const v = acknowledged.get(id)! + 1;
          const result = await store.diagrams.writeContent({
            id,
            title: `v${v}`,
            elementsJson: elementsAt(v),
            elementCount: 1,
            elementIds: new Set([`v${v}`]),
            expectedDocUpdatedAt: null,
            now: new Date(),
            revision: { kind: 'patch', userId: null, via: null, summary: `to v${v}`, delta: null, baseline: BASELINE_REVISION },
          });
          assert.equal(result.status, 'written');
          acknowledged.set(id, v);
        }
        writes += 1;
      }
    };
    const running = Promise.all([writer(0), writer(1)]);
    return {
      acknowledged,
      writes: () => writes,
      stop: async () => {
        stopped = true;
        await running;
      },
    };
  }

  for (const engine of ENGINES) {
    describe(`drawbridge-admin backup and restore on ${engine.name}`, { skip: engine.skip }, () => {
      test('a backup taken while writes go on restores every write acknowledged before it began, and each later write whole or not at all', async (t) => {
        const source = await engine.freshLocation();
        const store = await openStore(source);
        const file = path.join(scratchDir(), 'live.backup.gz');
        let before: Map<string, number>;
        let afterBackup: Map<string, number>;
        let writesDuring: number;
        let backedUp: any;
        try {
          const owner = await store.accounts.create({ id: randomUUID(), email: 'writer@example.com', emailVerified: true, quota: 1_000_000, createdAt: new Date().toISOString() });
          const writing = startWriting(store, owner.id);
          try {
            while (writing.writes() < 30) await new Promise((resolve) => setTimeout(resolve, 10));
            before = new Map(writing.acknowledged);
            const writesBefore = writing.writes();
            backedUp = await admin(source, 'backup', '--to', file);
            writesDuring = writing.writes() - writesBefore;
            afterBackup = new Map(writing.acknowledged);
          } finally {
            await writing.stop();
          }
        } finally {
          await store.close();
        }
        assert.ok(writesDuring > 0, 'writes went on while the backup ran');
        t.diagnostic(`${before!.size} diagrams acknowledged before the backup, ${writesDuring} writes acknowledged while it ran`);
        assert.equal(backedUp.file, file);
        assert.equal(backedUp.engine, engine.name);

        const target = await engine.freshLocation();
        const restored = await admin(target, 'restore', '--from', file);
        assert.deepEqual(restored.tables, backedUp.tables);
        assert.equal(restored.rows, backedUp.rows);

        const { db } = connectDatabase(target);
        try {
          if (engine.name === 'sqlite') {
            assert.deepEqual((await sql`pragma integrity_check`.execute(db)).rows, [{ integrity_check: 'ok' }]);
            assert.deepEqual((await sql`pragma foreign_key_check`.execute(db)).rows, []);
          }
          const diagrams = await db.selectFrom('diagrams').select(['id', 'title', 'elements']).execute();
          const revisions = await db.selectFrom('revisions').select(['diagram_id']).select((eb) => eb.fn.countAll().as('n')).groupBy('diagram_id').execute();
          const revisionCount = new Map(revisions.map((r) => [r.diagram_id, Number(r.n)]));
          const restoredVersion = new Map<string, number>();
          for (const diagram of diagrams) {
            const version = Number(diagram.title.slice(1));
            assert.equal(diagram.elements, elementsAt(version), `diagram ${diagram.id}: its title and its elements come from one write`);
            assert.equal(revisionCount.get(diagram.id), version + 1, `diagram ${diagram.id}: its revisions match its content`);
            assert.ok(version <= (afterBackup!.get(diagram.id) ?? -1), 'the restore holds no write that was never acknowledged');
            restoredVersion.set(diagram.id, version);
          }
          for (const [id, version] of before!) {
            assert.ok((restoredVersion.get(id) ?? -1) >= version, `diagram ${id}: version ${version}, acknowledged before the backup began, is restored`);
          }
          assert.equal(restored.tables.diagrams, diagrams.length);
        } finally {
          await db.destroy();
        }
      });

      test('restore prints one line and exits 1 when the target already holds data', async () => {
        const location = await engine.freshLocation();
        await admin(location, 'user', 'create', '--email', 'ops@example.com');
        const file = path.join(scratchDir(), 'one.backup.gz');
        await admin(location, 'backup', '--to', file);
        const refused = await run(BIN, ['restore', '--from', file], { env: envFor(location) }).then(
          () => assert.fail('the restore succeeded'),
          (error: { code: number; stdout: string; stderr: string }) => error,
        );
        assert.equal(refused.code, 1);
        assert.equal(refused.stdout, '');
        assert.match(refused.stderr, /^drawbridge-admin: the target database already holds data \(in users\); restore only into an empty database\n$/);
      });
    });
  }
});

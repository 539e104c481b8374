import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { type DiagramRecord } from '../../../src/store/store.ts';
import { at, type ContractContext, createDiagram, createUser, diagramRecord, folderRecord, metaOf, RACE_ROUNDS, TEST_AUTHOR, TEST_CREATED, warmUp } from './fixtures.ts';

/** Diagrams: the quota on creation, reads with the access facts, metadata, stars and the trash. */
export function diagramsContract({ withStore }: ContractContext): void {
  describe('diagrams', () => {
    test('creating a diagram at the quota is refused and stores nothing', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const neighbour = await createUser(store);
        // Another owner's diagrams do not count toward this user's quota.
        for (let i = 0; i < 3; i++) await createDiagram(store, diagramRecord(neighbour.id));

        assert.equal(await store.diagrams.create(diagramRecord(user.id, { createdAt: at(1) }), 2, TEST_CREATED), 'created');
        assert.equal(await store.diagrams.create(diagramRecord(user.id, { createdAt: at(2) }), 2, TEST_CREATED), 'created');
        const refused = diagramRecord(user.id, { createdAt: at(3) });
        assert.equal(await store.diagrams.create(refused, 2, TEST_CREATED), 'quota_exceeded');
        assert.equal(await store.diagrams.find(refused.id), null);
        assert.equal(await store.diagrams.create(diagramRecord(user.id), 0, TEST_CREATED), 'quota_exceeded');
        // A raised quota admits one more.
        assert.equal(await store.diagrams.create(diagramRecord(user.id), 3, TEST_CREATED), 'created');
        const listed = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 100 });
        assert.equal(listed.length, 3);
      }));

    test('a quota of 3 refuses the 4th diagram; an unlimited quota (Infinity) admits any number, past what any limit allowed', () =>
      withStore(async (store) => {
        const limited = await createUser(store);
        for (let i = 0; i < 3; i++) assert.equal(await store.diagrams.create(diagramRecord(limited.id), 3, TEST_CREATED), 'created');
        assert.equal(await store.diagrams.create(diagramRecord(limited.id), 3, TEST_CREATED), 'quota_exceeded');
        const unlimited = await createUser(store);
        for (let i = 0; i < 12; i++) assert.equal(await store.diagrams.create(diagramRecord(unlimited.id), Infinity, TEST_CREATED), 'created', `diagram ${i + 1}`);
        assert.equal((await store.diagrams.listOwned({ ownerId: unlimited.id, trashed: false, after: null, limit: 100 })).length, 12);
        // The same account, limited again, is refused: its 12 count.
        assert.equal(await store.diagrams.create(diagramRecord(unlimited.id), 12, TEST_CREATED), 'quota_exceeded');
      }));

    test('trashed diagrams do not count toward the quota', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const first = await createDiagram(store, diagramRecord(user.id), 2);
        await createDiagram(store, diagramRecord(user.id), 2);
        assert.equal(await store.diagrams.create(diagramRecord(user.id), 2, TEST_CREATED), 'quota_exceeded');

        await store.diagrams.setTrashed(first.id, true, at(10));
        assert.equal(await store.diagrams.create(diagramRecord(user.id), 2, TEST_CREATED), 'created');
        assert.equal(await store.diagrams.create(diagramRecord(user.id), 2, TEST_CREATED), 'quota_exceeded');
        // A diagram created already trashed does not count either.
        assert.equal(await store.diagrams.create(diagramRecord(user.id, { deletedAt: at(1) }), 3, TEST_CREATED), 'created');
        assert.equal(await store.diagrams.create(diagramRecord(user.id), 3, TEST_CREATED), 'created');
      }));

    test('concurrent creates never overshoot the quota', () =>
      withStore(async (store) => {
        await warmUp(store);
        for (let round = 0; round < RACE_ROUNDS; round++) {
          const user = await createUser(store);
          const quota = 3;
          const attempts = Array.from({ length: 8 }, (_, i) => diagramRecord(user.id, { createdAt: at(i) }));
          const outcomes = await Promise.all(attempts.map((d) => store.diagrams.create(d, quota, TEST_CREATED)));
          assert.equal(outcomes.filter((o) => o === 'created').length, quota, `round ${round}: created count`);
          assert.equal(outcomes.filter((o) => o === 'quota_exceeded').length, attempts.length - quota, `round ${round}: refused count`);

          const stored = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 100 });
          const createdIds = attempts.filter((_, i) => outcomes[i] === 'created').map((d) => d.id);
          assert.deepEqual(new Set(stored.map((d) => d.id)), new Set(createdIds), `round ${round}: stored diagrams`);
        }
      }));

    test("a diagram's elements are read back byte-identical to what was stored", () =>
      withStore(async (store) => {
        const user = await createUser(store);
        // Key order, whitespace, escapes, non-BMP characters and number spellings must all survive.
        const elementsJson =
          '[ {"type":"text","z":1,"a":0, "text":"caf\u00e9 \ud83d\ude80 \\u00e9 \\n \\"q\\"","x":1.0,"y":-0e0,"w":1E3,' +
          '"big":12345678901234567890,\n\t"nested":{"b":[],"a":{}}} ]';
        const diagram = await createDiagram(store, diagramRecord(user.id, { elementsJson, elementCount: 1, title: 'Ünïcode ✓' }));

        const found = await store.diagrams.findForUser(diagram.id, user.id);
        assert.ok(found);
        assert.equal(found.diagram.elementsJson, elementsJson);
        assert.equal(Buffer.compare(Buffer.from(found.diagram.elementsJson), Buffer.from(elementsJson)), 0);
        assert.deepEqual(found.diagram, diagram);
        assert.deepEqual(await store.diagrams.find(diagram.id), metaOf(diagram));
        assert.equal(await store.diagrams.findForUser(randomUUID(), user.id), null);
        assert.equal(await store.diagrams.findMetaForUser(randomUUID(), user.id), null);
      }));

    test("a read for a user reports that user's share and workspace roles, and nulls for a stranger", () =>
      withStore(async (store) => {
        const owner = await createUser(store);
        const sharee = await createUser(store);
        const member = await createUser(store);
        const both = await createUser(store);
        const stranger = await createUser(store);
        const workspace = await store.sharing.createWorkspace({ id: randomUUID(), name: 'Team', ownerId: owner.id, createdAt: at(0) });
        await store.sharing.setWorkspaceMember(workspace.id, member.id, 'editor');
        await store.sharing.setWorkspaceMember(workspace.id, both.id, 'viewer');
        const diagram = await createDiagram(store, diagramRecord(owner.id, { workspaceId: workspace.id, elementsJson: '[{"id":"e1"}]', elementCount: 1 }));
        const elsewhere = await createDiagram(store, diagramRecord(owner.id));
        await store.sharing.shareDiagram(diagram.id, sharee.id, 'viewer');
        await store.sharing.shareDiagram(diagram.id, both.id, 'editor');
        // A share on another diagram is not a share on this one.
        await store.sharing.shareDiagram(elsewhere.id, stranger.id, 'editor');

        const expected = [
          [owner, { shareRole: null, workspaceRole: 'admin' }],
          [sharee, { shareRole: 'viewer', workspaceRole: null }],
          [member, { shareRole: null, workspaceRole: 'editor' }],
          [both, { shareRole: 'editor', workspaceRole: 'viewer' }],
          [stranger, { shareRole: null, workspaceRole: null }],
        ] as const;
        for (const [user, roles] of expected) {
          const full = await store.diagrams.findForUser(diagram.id, user.id);
          assert.deepEqual(full, { diagram, access: { ownerId: owner.id, ...roles } }, `findDiagramForUser as ${user.email}`);
          const meta = await store.diagrams.findMetaForUser(diagram.id, user.id);
          assert.deepEqual(meta, { diagram: metaOf(diagram), access: { ownerId: owner.id, ...roles } }, `findDiagramMetaForUser as ${user.email}`);
        }
        assert.deepEqual((await store.diagrams.findForUser(elsewhere.id, stranger.id))?.access, {
          ownerId: owner.id,
          shareRole: 'editor',
          workspaceRole: null,
        });
      }));

    test('a metadata update changes only the fields given', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const folder = await store.folders.create(folderRecord(user.id));
        const other = await store.folders.create(folderRecord(user.id));
        const diagram = await createDiagram(
          store,
          diagramRecord(user.id, {
            title: 'Before',
            folderId: folder.id,
            starred: true,
            elementCount: 2,
            elementsJson: '[{"id":"a"},{"id":"b"}]',
            docUpdatedAt: at(3),
          }),
        );

        const renamed = await store.diagrams.updateMeta(diagram.id, { title: 'After', updatedAt: at(10) }, TEST_AUTHOR);
        let expected: DiagramRecord = { ...diagram, title: 'After', updatedAt: at(10) };
        assert.deepEqual(renamed, metaOf(expected));

        const moved = await store.diagrams.updateMeta(diagram.id, { folderId: other.id, updatedAt: at(20) }, TEST_AUTHOR);
        expected = { ...expected, folderId: other.id, updatedAt: at(20) };
        assert.deepEqual(moved, metaOf(expected));

        const unfiled = await store.diagrams.updateMeta(diagram.id, { folderId: null, updatedAt: at(30) }, TEST_AUTHOR);
        expected = { ...expected, folderId: null, updatedAt: at(30) };
        assert.deepEqual(unfiled, metaOf(expected));

        const both = await store.diagrams.updateMeta(diagram.id, { title: 'Both', folderId: folder.id, updatedAt: at(40) }, TEST_AUTHOR);
        expected = { ...expected, title: 'Both', folderId: folder.id, updatedAt: at(40) };
        assert.deepEqual(both, metaOf(expected));

        assert.deepEqual((await store.diagrams.findForUser(diagram.id, user.id))?.diagram, expected);
        assert.equal(await store.diagrams.updateMeta(randomUUID(), { title: 'Ghost', updatedAt: at(50) }, TEST_AUTHOR), null);
      }));

    test('starring stars and unstars one diagram', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(user.id));
        const other = await createDiagram(store, diagramRecord(user.id));
        await store.diagrams.setStarred(diagram.id, true);
        assert.equal((await store.diagrams.find(diagram.id))?.starred, true);
        assert.equal((await store.diagrams.find(other.id))?.starred, false);
        await store.diagrams.setStarred(diagram.id, false);
        assert.equal((await store.diagrams.find(diagram.id))?.starred, false);
      }));

    test('trashing is idempotent and keeps the first deletedAt', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(user.id));
        await store.diagrams.setTrashed(diagram.id, true, at(100));
        assert.equal((await store.diagrams.find(diagram.id))?.deletedAt, at(100));
        await store.diagrams.setTrashed(diagram.id, true, at(200));
        const after = await store.diagrams.find(diagram.id);
        assert.equal(after?.deletedAt, at(100));
        const trashed = await store.diagrams.listOwned({ ownerId: user.id, trashed: true, after: null, limit: 100 });
        assert.deepEqual(trashed.map((d) => d.id), [diagram.id]);
      }));

    test('restoring a trashed diagram clears deletedAt and restoring an active one changes nothing', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(user.id));
        const active = await createDiagram(store, diagramRecord(user.id));
        await store.diagrams.setTrashed(diagram.id, true, at(100));
        await store.diagrams.setTrashed(diagram.id, false, at(200));
        assert.equal((await store.diagrams.find(diagram.id))?.deletedAt, null);
        const listed = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 100 });
        assert.deepEqual(new Set(listed.map((d) => d.id)), new Set([diagram.id, active.id]));

        await store.diagrams.setTrashed(active.id, false, at(300));
        assert.deepEqual(await store.diagrams.find(active.id), metaOf(active));
        // Trashing again after a restore records the new time.
        await store.diagrams.setTrashed(diagram.id, true, at(400));
        assert.equal((await store.diagrams.find(diagram.id))?.deletedAt, at(400));
      }));
  });
}

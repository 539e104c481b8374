import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { at, type ContractContext, createDiagram, createUser, diagramRecord, folderRecord } from './fixtures.ts';

/** Folders: a tree per user. */
export function foldersContract({ withStore }: ContractContext): void {
  describe('folders', () => {
    test('a folder round-trips every field, and folders are listed in creation order', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const stranger = await createUser(store);
        // Names run backwards so the order cannot come from sorting by name.
        const top = await store.folders.create(folderRecord(user.id, { name: 'Zeta', createdAt: at(1), updatedAt: at(1) }));
        const child = await store.folders.create(folderRecord(user.id, { name: 'Mu', parentId: top.id, createdAt: at(2), updatedAt: at(5) }));
        const last = await store.folders.create(folderRecord(user.id, { name: 'Alpha', createdAt: at(3), updatedAt: at(3) }));
        await store.folders.create(folderRecord(stranger.id, { createdAt: at(0) }));

        assert.deepEqual(await store.folders.list(user.id), [top, child, last]);
        assert.deepEqual(await store.folders.find(child.id), child);
        assert.equal(await store.folders.find(randomUUID()), null);
        assert.deepEqual(await store.folders.list(randomUUID()), []);
      }));

    test('renaming a folder changes its name and updatedAt only', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const parent = await store.folders.create(folderRecord(user.id, { name: 'Parent' }));
        const folder = await store.folders.create(folderRecord(user.id, { name: 'Old', parentId: parent.id, createdAt: at(1), updatedAt: at(1) }));
        const renamed = await store.folders.rename(folder.id, 'New', at(50));
        assert.deepEqual(renamed, { ...folder, name: 'New', updatedAt: at(50) });
        assert.deepEqual(await store.folders.find(folder.id), renamed);
        assert.deepEqual(await store.folders.find(parent.id), parent);
        assert.equal(await store.folders.rename(randomUUID(), 'Ghost', at(60)), null);
      }));

    test('deleting a folder unfiles its diagrams and moves its subfolders to its parent', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const top = await store.folders.create(folderRecord(user.id, { name: 'top', createdAt: at(1) }));
        const middle = await store.folders.create(folderRecord(user.id, { name: 'middle', parentId: top.id, createdAt: at(2) }));
        const leafA = await store.folders.create(folderRecord(user.id, { name: 'leaf a', parentId: middle.id, createdAt: at(3) }));
        const leafB = await store.folders.create(folderRecord(user.id, { name: 'leaf b', parentId: middle.id, createdAt: at(4) }));
        const inMiddle = await createDiagram(store, diagramRecord(user.id, { folderId: middle.id }));
        const inLeaf = await createDiagram(store, diagramRecord(user.id, { folderId: leafA.id }));
        const inTop = await createDiagram(store, diagramRecord(user.id, { folderId: top.id }));

        await store.folders.delete(middle.id, at(100));
        assert.equal(await store.folders.find(middle.id), null);
        assert.equal((await store.folders.find(leafA.id))?.parentId, top.id);
        assert.equal((await store.folders.find(leafB.id))?.parentId, top.id);
        assert.equal((await store.diagrams.find(inMiddle.id))?.folderId, null);
        assert.equal((await store.diagrams.find(inLeaf.id))?.folderId, leafA.id);
        assert.equal((await store.diagrams.find(inTop.id))?.folderId, top.id);
        assert.deepEqual(
          (await store.folders.list(user.id)).map((f) => f.id),
          [top.id, leafA.id, leafB.id],
        );

        // Deleting a top-level folder moves its subfolders to the top level.
        await store.folders.delete(top.id, at(200));
        assert.equal((await store.folders.find(leafA.id))?.parentId, null);
        assert.equal((await store.folders.find(leafB.id))?.parentId, null);
        assert.equal((await store.diagrams.find(inTop.id))?.folderId, null);
        assert.equal((await store.diagrams.find(inLeaf.id))?.folderId, leafA.id);
      }));
  });
}

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { at, type ContractContext, createDiagram, createUser, diagramRecord, metaOf } from './fixtures.ts';

/** Workspaces, their members and shares with single users. */
export function sharingContract({ withStore }: ContractContext): void {
  describe('sharing', () => {
    test('creating a workspace makes its owner an admin member', () =>
      withStore(async (store) => {
        const owner = await createUser(store);
        const author = await createUser(store);
        const workspace = { id: randomUUID(), name: 'Platform', ownerId: owner.id, createdAt: at(5) };
        assert.deepEqual(await store.sharing.createWorkspace(workspace), workspace);
        assert.deepEqual(await store.sharing.findWorkspace(workspace.id), workspace);
        assert.equal(await store.sharing.findWorkspace(randomUUID()), null);

        const diagram = await createDiagram(store, diagramRecord(author.id));
        const before = await store.diagrams.findMetaForUser(diagram.id, owner.id);
        assert.equal(before?.access.workspaceRole, null);

        await store.sharing.setDiagramWorkspace(diagram.id, workspace.id);
        const found = await store.diagrams.findMetaForUser(diagram.id, owner.id);
        assert.deepEqual(found, {
          diagram: { ...metaOf(diagram), workspaceId: workspace.id },
          access: { ownerId: author.id, shareRole: null, workspaceRole: 'admin' },
        });
        assert.equal((await store.diagrams.findForUser(diagram.id, owner.id))?.access.workspaceRole, 'admin');
      }));

    test('adding a workspace member again replaces the role', () =>
      withStore(async (store) => {
        const owner = await createUser(store);
        const member = await createUser(store);
        const colleague = await createUser(store);
        const outsider = await createUser(store);
        const workspace = await store.sharing.createWorkspace({ id: randomUUID(), name: 'Docs', ownerId: owner.id, createdAt: at(0) });
        const diagram = await createDiagram(store, diagramRecord(owner.id, { workspaceId: workspace.id }));

        await store.sharing.setWorkspaceMember(workspace.id, member.id, 'viewer');
        await store.sharing.setWorkspaceMember(workspace.id, colleague.id, 'editor');
        assert.equal((await store.diagrams.findMetaForUser(diagram.id, member.id))?.access.workspaceRole, 'viewer');

        await store.sharing.setWorkspaceMember(workspace.id, member.id, 'editor');
        assert.equal((await store.diagrams.findMetaForUser(diagram.id, member.id))?.access.workspaceRole, 'editor');
        await store.sharing.setWorkspaceMember(workspace.id, member.id, 'viewer');
        assert.equal((await store.diagrams.findMetaForUser(diagram.id, member.id))?.access.workspaceRole, 'viewer');

        assert.equal((await store.diagrams.findMetaForUser(diagram.id, colleague.id))?.access.workspaceRole, 'editor');
        assert.equal((await store.diagrams.findMetaForUser(diagram.id, owner.id))?.access.workspaceRole, 'admin');
        assert.equal((await store.diagrams.findMetaForUser(diagram.id, outsider.id))?.access.workspaceRole, null);
      }));

    test('sharing a diagram again replaces the role', () =>
      withStore(async (store) => {
        const owner = await createUser(store);
        const friend = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(owner.id));
        await store.sharing.shareDiagram(diagram.id, friend.id, 'viewer');
        assert.equal((await store.diagrams.findMetaForUser(diagram.id, friend.id))?.access.shareRole, 'viewer');
        await store.sharing.shareDiagram(diagram.id, friend.id, 'editor');
        assert.equal((await store.diagrams.findMetaForUser(diagram.id, friend.id))?.access.shareRole, 'editor');
        await store.sharing.shareDiagram(diagram.id, friend.id, 'viewer');
        assert.equal((await store.diagrams.findMetaForUser(diagram.id, friend.id))?.access.shareRole, 'viewer');
      }));
  });
}

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import type { InvitationRecord, InvitationTarget } from '../../../src/store/store.ts';
import { at, type ContractContext, createDiagram, createUser, diagramRecord, metaOf, RACE_ROUNDS, uniqueEmail, userRecord, warmUp } from './fixtures.ts';

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

/** Shares and members as people manage them, invitations of addresses, and the diagrams others reach. */
export function sharingManagementContract({ withStore }: ContractContext): void {
  const invitation = (inviterId: string, email: string, target: InvitationTarget, overrides: Partial<InvitationRecord> = {}): InvitationRecord => ({
    id: randomUUID(),
    email,
    target,
    inviterId,
    createdAt: at(0),
    expiresAt: at(10_000),
    acceptedAt: null,
    ...overrides,
  });

  describe('sharing management', () => {
    test('shares are listed with their addresses in the order they were made; changing or removing a missing share reports false', () =>
      withStore(async (store) => {
        const owner = await createUser(store);
        const first = await createUser(store);
        const second = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(owner.id));
        await store.sharing.shareDiagram(diagram.id, second.id, 'editor', at(20));
        await store.sharing.shareDiagram(diagram.id, first.id, 'viewer', at(10));
        // Sharing again changes the role, not when the share began.
        await store.sharing.shareDiagram(diagram.id, first.id, 'editor', at(30));
        assert.deepEqual(await store.sharing.listShares(diagram.id), [
          { diagramId: diagram.id, userId: first.id, email: first.email, role: 'editor', createdAt: at(10) },
          { diagramId: diagram.id, userId: second.id, email: second.email, role: 'editor', createdAt: at(20) },
        ]);
        assert.equal(await store.sharing.changeShare(diagram.id, second.id, 'viewer'), true);
        assert.equal(await store.sharing.changeShare(diagram.id, owner.id, 'viewer'), false);
        assert.equal(await store.sharing.removeShare(diagram.id, first.id), true);
        assert.equal(await store.sharing.removeShare(diagram.id, first.id), false);
        assert.deepEqual(await store.sharing.listShares(diagram.id), [{ diagramId: diagram.id, userId: second.id, email: second.email, role: 'viewer', createdAt: at(20) }]);
        assert.equal((await store.diagrams.findMetaForUser(diagram.id, first.id))?.access.shareRole, null);
      }));

    test('a member sees each workspace with their role and its member count; a rename shows', () =>
      withStore(async (store) => {
        const owner = await createUser(store);
        const member = await createUser(store);
        const outsider = await createUser(store);
        const older = await store.sharing.createWorkspace({ id: randomUUID(), name: 'Older', ownerId: owner.id, createdAt: at(1) });
        const newer = await store.sharing.createWorkspace({ id: randomUUID(), name: 'Newer', ownerId: member.id, createdAt: at(2) });
        await store.sharing.setWorkspaceMember(older.id, member.id, 'viewer', at(5));
        await store.sharing.renameWorkspace(older.id, 'Renamed');
        assert.deepEqual(await store.sharing.workspacesOf(member.id), [
          { ...older, name: 'Renamed', role: 'viewer', memberCount: 2 },
          { ...newer, role: 'admin', memberCount: 1 },
        ]);
        assert.deepEqual(await store.sharing.workspacesOf(outsider.id), []);
        assert.equal(await store.sharing.memberRole(older.id, member.id), 'viewer');
        assert.equal(await store.sharing.memberRole(older.id, outsider.id), null);
        assert.deepEqual(await store.sharing.listMembers(older.id), [
          { workspaceId: older.id, userId: owner.id, email: owner.email, role: 'admin', joinedAt: at(1) },
          { workspaceId: older.id, userId: member.id, email: member.email, role: 'viewer', joinedAt: at(5) },
        ]);
      }));

    test('the last admin of a workspace can be neither demoted nor removed; with another admin both work', () =>
      withStore(async (store) => {
        const owner = await createUser(store);
        const other = await createUser(store);
        const workspace = await store.sharing.createWorkspace({ id: randomUUID(), name: 'Ops', ownerId: owner.id, createdAt: at(0) });
        await store.sharing.setWorkspaceMember(workspace.id, other.id, 'editor', at(1));
        assert.equal(await store.sharing.changeMemberRole(workspace.id, owner.id, 'editor'), 'last_admin');
        assert.equal(await store.sharing.removeMember(workspace.id, owner.id), 'last_admin');
        assert.equal(await store.sharing.memberRole(workspace.id, owner.id), 'admin');
        assert.equal(await store.sharing.changeMemberRole(workspace.id, randomUUID(), 'viewer'), 'missing');
        assert.equal(await store.sharing.removeMember(workspace.id, randomUUID()), 'missing');

        assert.equal(await store.sharing.changeMemberRole(workspace.id, other.id, 'admin'), 'changed');
        assert.equal(await store.sharing.changeMemberRole(workspace.id, owner.id, 'viewer'), 'changed');
        assert.equal(await store.sharing.removeMember(workspace.id, owner.id), 'changed');
        assert.equal(await store.sharing.memberRole(workspace.id, owner.id), null);
        assert.equal(await store.sharing.removeMember(workspace.id, other.id), 'last_admin');
      }));

    test('two admins demoting each other at once leave one admin', () =>
      withStore(async (store) => {
        for (let round = 0; round < RACE_ROUNDS; round += 1) {
          const first = await createUser(store);
          const second = await createUser(store);
          const workspace = await store.sharing.createWorkspace({ id: randomUUID(), name: 'Race', ownerId: first.id, createdAt: at(0) });
          await store.sharing.setWorkspaceMember(workspace.id, second.id, 'admin', at(1));
          await warmUp(store);
          const outcomes = await Promise.all([
            store.sharing.changeMemberRole(workspace.id, first.id, 'viewer'),
            store.sharing.removeMember(workspace.id, second.id),
          ]);
          assert.deepEqual([...outcomes].sort(), ['changed', 'last_admin']);
          const admins = (await store.sharing.listMembers(workspace.id)).filter((m) => m.role === 'admin');
          assert.equal(admins.length, 1);
        }
      }));

    test('others reach a diagram shared with them or in their workspace, newest first, never a trashed one nor their own', () =>
      withStore(async (store) => {
        const owner = await createUser(store);
        const reader = await createUser(store);
        const workspace = await store.sharing.createWorkspace({ id: randomUUID(), name: 'Team', ownerId: owner.id, createdAt: at(0) });
        await store.sharing.setWorkspaceMember(workspace.id, reader.id, 'viewer', at(0));
        const shared = await createDiagram(store, diagramRecord(owner.id, { createdAt: at(1) }));
        const inWorkspace = await createDiagram(store, diagramRecord(owner.id, { createdAt: at(2), workspaceId: workspace.id }));
        const both = await createDiagram(store, diagramRecord(owner.id, { createdAt: at(3), workspaceId: workspace.id }));
        const trashed = await createDiagram(store, diagramRecord(owner.id, { createdAt: at(4), deletedAt: at(5) }));
        const ownInWorkspace = await createDiagram(store, diagramRecord(reader.id, { createdAt: at(6), workspaceId: workspace.id }));
        await createDiagram(store, diagramRecord(owner.id, { createdAt: at(7) }));
        await store.sharing.shareDiagram(shared.id, reader.id, 'viewer', at(8));
        await store.sharing.shareDiagram(both.id, reader.id, 'editor', at(8));
        await store.sharing.shareDiagram(trashed.id, reader.id, 'editor', at(8));

        const sharedPage = await store.sharing.listReachable({ userId: reader.id, scope: { kind: 'shared' }, after: null, limit: 10 });
        assert.deepEqual(sharedPage, [
          { diagram: metaOf(both), access: { ownerId: owner.id, shareRole: 'editor', workspaceRole: 'viewer' } },
          { diagram: metaOf(inWorkspace), access: { ownerId: owner.id, shareRole: null, workspaceRole: 'viewer' } },
          { diagram: metaOf(shared), access: { ownerId: owner.id, shareRole: 'viewer', workspaceRole: null } },
        ]);
        const next = await store.sharing.listReachable({ userId: reader.id, scope: { kind: 'shared' }, after: { createdAt: both.createdAt, id: both.id }, limit: 1 });
        assert.deepEqual(next.map((r) => r.diagram.id), [inWorkspace.id]);

        const workspacePage = await store.sharing.listReachable({ userId: reader.id, scope: { kind: 'workspace', workspaceId: workspace.id }, after: null, limit: 10 });
        assert.deepEqual(workspacePage.map((r) => r.diagram.id), [ownInWorkspace.id, both.id, inWorkspace.id]);
        assert.deepEqual(await store.sharing.listReachable({ userId: (await createUser(store)).id, scope: { kind: 'workspace', workspaceId: workspace.id }, after: null, limit: 10 }), []);
      }));

    test('an invitation again for the same address and target replaces the pending one; expired, accepted and cancelled ones are not pending', () =>
      withStore(async (store) => {
        const owner = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(owner.id));
        const target = { kind: 'diagram', diagramId: diagram.id, role: 'viewer' } as const;
        const first = await store.sharing.invite(invitation(owner.id, 'new@example.com', target));
        const again = await store.sharing.invite(invitation(owner.id, 'new@example.com', { ...target, role: 'editor' }, { createdAt: at(5) }));
        const expired = await store.sharing.invite(invitation(owner.id, 'late@example.com', target, { expiresAt: at(50) }));
        assert.equal(await store.sharing.findInvitation(first.id), null);
        assert.deepEqual(await store.sharing.findInvitation(again.id), again);
        assert.deepEqual(await store.sharing.pendingInvitations({ kind: 'diagram', id: diagram.id }, at(100)), [again]);
        assert.deepEqual(await store.sharing.pendingInvitations({ kind: 'diagram', id: diagram.id }, at(10)), [expired, again].sort((a, b) => a.createdAt.localeCompare(b.createdAt)));
        assert.equal(await store.sharing.cancelInvitation(again.id), true);
        assert.equal(await store.sharing.cancelInvitation(again.id), false);
        assert.deepEqual(await store.sharing.pendingInvitations({ kind: 'diagram', id: diagram.id }, at(100)), []);
      }));

    test('an address has a pending invitation while one to anything is neither accepted, expired nor cancelled', () =>
      withStore(async (store) => {
        const owner = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(owner.id));
        const workspace = await store.sharing.createWorkspace({ id: randomUUID(), name: 'Team', ownerId: owner.id, createdAt: at(0) });
        const [toDiagram, toWorkspace, never] = [uniqueEmail('diagram'), uniqueEmail('workspace'), uniqueEmail('never')];
        const pending = await store.sharing.invite(invitation(owner.id, toDiagram, { kind: 'diagram', diagramId: diagram.id, role: 'viewer' }, { expiresAt: at(50) }));
        await store.sharing.invite(invitation(owner.id, toWorkspace, { kind: 'workspace', workspaceId: workspace.id, role: 'editor' }));
        assert.equal(await store.sharing.hasPendingInvitation(toDiagram, at(10)), true);
        assert.equal(await store.sharing.hasPendingInvitation(toWorkspace, at(10)), true);
        assert.equal(await store.sharing.hasPendingInvitation(never, at(10)), false);
        assert.equal(await store.sharing.hasPendingInvitation(toDiagram, at(50)), false, 'expired');
        assert.equal(await store.sharing.cancelInvitation(pending.id), true);
        assert.equal(await store.sharing.hasPendingInvitation(toDiagram, at(10)), false, 'cancelled');
        const joined = await createUser(store, { email: toWorkspace });
        await store.sharing.acceptInvitations(toWorkspace, joined.id, at(20), { bonus: 0, cap: 0 });
        assert.equal(await store.sharing.hasPendingInvitation(toWorkspace, at(30)), false, 'accepted');
      }));

    test('accepting an address’s invitations grants each share and membership once and rewards each inviter once, up to the cap', () =>
      withStore(async (store) => {
        const inviter = await createUser(store, { quota: 3 });
        const capped = await createUser(store, { quota: 3 });
        const unlimited = await createUser(store, { quota: Infinity });
        const diagram = await createDiagram(store, diagramRecord(inviter.id));
        const other = await createDiagram(store, diagramRecord(inviter.id));
        const cappedDiagram = await createDiagram(store, diagramRecord(capped.id));
        const unlimitedDiagram = await createDiagram(store, diagramRecord(unlimited.id));
        const workspace = await store.sharing.createWorkspace({ id: randomUUID(), name: 'Team', ownerId: inviter.id, createdAt: at(0) });
        const email = uniqueEmail('invitee');
        await store.sharing.invite(invitation(inviter.id, email, { kind: 'diagram', diagramId: diagram.id, role: 'editor' }));
        await store.sharing.invite(invitation(inviter.id, email, { kind: 'diagram', diagramId: other.id, role: 'viewer' }, { expiresAt: at(50) }));
        await store.sharing.invite(invitation(inviter.id, email, { kind: 'workspace', workspaceId: workspace.id, role: 'editor' }));
        await store.sharing.invite(invitation(capped.id, email, { kind: 'diagram', diagramId: cappedDiagram.id, role: 'viewer' }));
        await store.sharing.invite(invitation(unlimited.id, email, { kind: 'diagram', diagramId: unlimitedDiagram.id, role: 'viewer' }));
        // The capped inviter has earned all but one diagram of the cap already.
        await store.transaction(async (tx) => {
          const earlier = uniqueEmail('earlier');
          await tx.sharing.invite(invitation(capped.id, earlier, { kind: 'diagram', diagramId: cappedDiagram.id, role: 'viewer' }));
          const someone = await tx.accounts.create(userRecord({ email: earlier }));
          await tx.sharing.acceptInvitations(earlier, someone.id, at(1), { bonus: 4, cap: 5 });
        });
        assert.equal((await store.accounts.findById(capped.id))?.quota, 7);

        const invitee = await createUser(store, { email });
        const accepted = await store.sharing.acceptInvitations(email, invitee.id, at(100), { bonus: 4, cap: 5 });
        assert.equal(accepted.length, 4);
        assert.ok(accepted.every((a) => a.acceptedAt === at(100)));
        assert.equal((await store.diagrams.findMetaForUser(diagram.id, invitee.id))?.access.shareRole, 'editor');
        assert.equal((await store.diagrams.findMetaForUser(other.id, invitee.id))?.access.shareRole, null, 'an expired invitation grants nothing');
        assert.equal(await store.sharing.memberRole(workspace.id, invitee.id), 'editor');
        assert.equal((await store.accounts.findById(inviter.id))?.quota, 7, 'one reward per person, though two of their invitations were accepted');
        assert.equal((await store.accounts.findById(capped.id))?.quota, 8, 'held to the cap');
        assert.equal((await store.accounts.findById(unlimited.id))?.quota, Infinity);

        // Nothing is pending any more: accepting again grants and earns nothing.
        assert.deepEqual(await store.sharing.acceptInvitations(email, invitee.id, at(101), { bonus: 4, cap: 5 }), []);
        assert.equal((await store.accounts.findById(inviter.id))?.quota, 7);
      }));

    test('accepting never lowers a role the person already has, and a target gone since grants nothing', () =>
      withStore(async (store) => {
        const owner = await createUser(store);
        const email = uniqueEmail('invitee');
        const invitee = await createUser(store, { email });
        const diagram = await createDiagram(store, diagramRecord(owner.id));
        const workspace = await store.sharing.createWorkspace({ id: randomUUID(), name: 'Team', ownerId: owner.id, createdAt: at(0) });
        await store.sharing.shareDiagram(diagram.id, invitee.id, 'editor', at(0));
        await store.sharing.setWorkspaceMember(workspace.id, invitee.id, 'admin', at(0));
        await store.sharing.invite(invitation(owner.id, email, { kind: 'diagram', diagramId: diagram.id, role: 'viewer' }));
        await store.sharing.invite(invitation(owner.id, email, { kind: 'workspace', workspaceId: workspace.id, role: 'viewer' }));
        await store.sharing.invite(invitation(owner.id, email, { kind: 'diagram', diagramId: randomUUID(), role: 'viewer' }));
        const accepted = await store.sharing.acceptInvitations(email, invitee.id, at(1), { bonus: 0, cap: 0 });
        assert.equal(accepted.length, 2);
        assert.equal((await store.diagrams.findMetaForUser(diagram.id, invitee.id))?.access.shareRole, 'editor');
        assert.equal(await store.sharing.memberRole(workspace.id, invitee.id), 'admin');
      }));
  });
}

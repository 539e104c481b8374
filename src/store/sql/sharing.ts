import type { Kysely, Selectable } from 'kysely';
import type { ChangeRecording } from '../history.ts';
import type { ShareRole, WorkspaceRole } from '../../auth/policy.ts';
import type { Database, InvitationsTable } from '../schema.ts';
import type {
  InvitationRecord,
  InvitationReward,
  MemberChange,
  MemberRecord,
  MemberWorkspace,
  ReachableDiagram,
  ReachableDiagramsQuery,
  ShareRecord,
  SharingStore,
  WorkspaceRecord,
} from '../sharing.ts';
import { META_COLUMNS, toMeta } from './rows.ts';
import type { SqlScope } from './scope.ts';
import { namedPair, recordEvent } from './history.ts';

const SHARE_RANK: Record<ShareRole, number> = { viewer: 1, editor: 2 };
const WORKSPACE_RANK: Record<WorkspaceRole, number> = { viewer: 1, editor: 2, admin: 3 };

const toWorkspace = (row: { id: string; name: string; owner_id: string; created_at: string }): WorkspaceRecord => ({
  id: row.id,
  name: row.name,
  ownerId: row.owner_id,
  createdAt: row.created_at,
});

function toInvitation(row: Selectable<InvitationsTable>): InvitationRecord {
  const target =
    row.kind === 'workspace'
      ? { kind: 'workspace' as const, workspaceId: row.target_id, role: row.role as WorkspaceRole }
      : { kind: 'diagram' as const, diagramId: row.target_id, role: row.role as ShareRole };
  return { id: row.id, email: row.email, target, inviterId: row.inviter_id, createdAt: row.created_at, expiresAt: row.expires_at, acceptedAt: row.accepted_at };
}

const targetId = (invitation: InvitationRecord) => (invitation.target.kind === 'diagram' ? invitation.target.diagramId : invitation.target.workspaceId);

export class SqlSharing implements SharingStore {
  private readonly scope: SqlScope;

  constructor(scope: SqlScope) {
    this.scope = scope;
  }

  async createWorkspace(workspace: WorkspaceRecord): Promise<WorkspaceRecord> {
    await this.scope.atomic(async (trx) => {
      await trx
        .insertInto('workspaces')
        .values({ id: workspace.id, name: workspace.name, owner_id: workspace.ownerId, created_at: workspace.createdAt })
        .execute();
      await trx
        .insertInto('workspace_members')
        .values({ workspace_id: workspace.id, user_id: workspace.ownerId, role: 'admin', joined_at: workspace.createdAt })
        .execute();
    });
    return workspace;
  }

  async findWorkspace(id: string): Promise<WorkspaceRecord | null> {
    const row = await this.scope.db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toWorkspace(row) : null;
  }

  async renameWorkspace(id: string, name: string): Promise<void> {
    await this.scope.db.updateTable('workspaces').set({ name }).where('id', '=', id).execute();
  }

  async workspacesOf(userId: string): Promise<MemberWorkspace[]> {
    const rows = await this.scope.db
      .selectFrom('workspace_members as m')
      .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
      .select(['w.id', 'w.name', 'w.owner_id', 'w.created_at', 'm.role'])
      .select((eb) =>
        eb.selectFrom('workspace_members as all').select((c) => c.fn.countAll<number | string>().as('n')).whereRef('all.workspace_id', '=', 'w.id').as('member_count'),
      )
      .where('m.user_id', '=', userId)
      .orderBy('w.created_at')
      .orderBy('w.id')
      .execute();
    return rows.map((row) => ({ ...toWorkspace(row), role: row.role as WorkspaceRole, memberCount: Number(row.member_count) }));
  }

  async memberRole(workspaceId: string, userId: string): Promise<WorkspaceRole | null> {
    const row = await this.scope.db
      .selectFrom('workspace_members')
      .select('role')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return (row?.role as WorkspaceRole | undefined) ?? null;
  }

  async setWorkspaceMember(workspaceId: string, userId: string, role: WorkspaceRole, joinedAt = new Date().toISOString()): Promise<void> {
    await this.scope.db
      .insertInto('workspace_members')
      .values({ workspace_id: workspaceId, user_id: userId, role, joined_at: joinedAt })
      .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet({ role }))
      .execute();
  }

  async listMembers(workspaceId: string): Promise<MemberRecord[]> {
    const rows = await this.scope.db
      .selectFrom('workspace_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.workspace_id', 'm.user_id', 'u.email', 'm.role', 'm.joined_at'])
      .where('m.workspace_id', '=', workspaceId)
      .orderBy('m.joined_at')
      .orderBy('u.email')
      .execute();
    return rows.map((row) => ({ workspaceId: row.workspace_id, userId: row.user_id, email: row.email, role: row.role as WorkspaceRole, joinedAt: row.joined_at }));
  }

  changeMemberRole(workspaceId: string, userId: string, role: WorkspaceRole): Promise<MemberChange> {
    return this.keepingAnAdmin(workspaceId, userId, role === 'admin', (trx) =>
      trx.updateTable('workspace_members').set({ role }).where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute(),
    );
  }

  removeMember(workspaceId: string, userId: string): Promise<MemberChange> {
    return this.keepingAnAdmin(workspaceId, userId, false, (trx) =>
      trx.deleteFrom('workspace_members').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute(),
    );
  }

  /**
   * Applies a change to one member unless it takes the workspace's last admin
   * away: the workspace row is locked first (PostgreSQL; SQLite transactions
   * are serial), so two admins demoting each other cannot both succeed.
   */
  private keepingAnAdmin(workspaceId: string, userId: string, staysAdmin: boolean, change: (trx: Kysely<Database>) => Promise<unknown>): Promise<MemberChange> {
    return this.scope.atomic(async (trx) => {
      if (this.scope.engine === 'postgres') {
        await trx.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().execute();
      }
      const members = await trx.selectFrom('workspace_members').select(['user_id', 'role']).where('workspace_id', '=', workspaceId).execute();
      const member = members.find((m) => m.user_id === userId);
      if (!member) return 'missing';
      const otherAdmins = members.filter((m) => m.role === 'admin' && m.user_id !== userId).length;
      if (member.role === 'admin' && !staysAdmin && otherAdmins === 0) return 'last_admin';
      await change(trx);
      return 'changed';
    });
  }

  async setDiagramWorkspace(diagramId: string, workspaceId: string | null, by?: { recording: ChangeRecording; at: string }): Promise<void> {
    await this.scope.atomic(async (trx) => {
      const before = await trx
        .selectFrom('diagrams')
        .select('workspace_id')
        .where('id', '=', diagramId)
        .$if(this.scope.engine === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      if (!before || before.workspace_id === workspaceId) return;
      await trx.updateTable('diagrams').set({ workspace_id: workspaceId }).where('id', '=', diagramId).execute();
      if (!by) return;
      const workspace = await namedPair(trx, 'workspaces', before.workspace_id, workspaceId);
      for (const event of by.recording.events({ workspace })) await recordEvent(trx, diagramId, by.at, event, by.recording.baseline);
    });
  }

  async shareDiagram(diagramId: string, userId: string, role: ShareRole, createdAt = new Date().toISOString()): Promise<void> {
    await this.scope.db
      .insertInto('diagram_shares')
      .values({ diagram_id: diagramId, user_id: userId, role, created_at: createdAt })
      .onConflict((oc) => oc.columns(['diagram_id', 'user_id']).doUpdateSet({ role }))
      .execute();
  }

  async listShares(diagramId: string): Promise<ShareRecord[]> {
    const rows = await this.scope.db
      .selectFrom('diagram_shares as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.diagram_id', 's.user_id', 'u.email', 's.role', 's.created_at'])
      .where('s.diagram_id', '=', diagramId)
      .orderBy('s.created_at')
      .orderBy('u.email')
      .execute();
    return rows.map((row) => ({ diagramId: row.diagram_id, userId: row.user_id, email: row.email, role: row.role as ShareRole, createdAt: row.created_at }));
  }

  async changeShare(diagramId: string, userId: string, role: ShareRole): Promise<boolean> {
    const result = await this.scope.db.updateTable('diagram_shares').set({ role }).where('diagram_id', '=', diagramId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async removeShare(diagramId: string, userId: string): Promise<boolean> {
    const result = await this.scope.db.deleteFrom('diagram_shares').where('diagram_id', '=', diagramId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async listReachable(query: ReachableDiagramsQuery): Promise<ReachableDiagram[]> {
    const { userId } = query;
    let q = this.scope.db
      .selectFrom('diagrams as d')
      .leftJoin('diagram_shares as s', (join) => join.onRef('s.diagram_id', '=', 'd.id').on('s.user_id', '=', userId))
      .leftJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'd.workspace_id').on('m.user_id', '=', userId))
      .select(META_COLUMNS)
      .select(['s.role as share_role', 'm.role as workspace_role'])
      .where('d.deleted_at', 'is', null);
    if (query.scope.kind === 'shared') {
      q = q.where('d.owner_id', '!=', userId).where((eb) => eb.or([eb('s.role', 'is not', null), eb('m.role', 'is not', null)]));
    } else {
      q = q.where('d.workspace_id', '=', query.scope.workspaceId).where((eb) => eb.or([eb('m.role', 'is not', null), eb('d.owner_id', '=', userId)]));
    }
    const after = query.after;
    if (after) {
      q = q.where((eb) => eb.or([eb('d.created_at', '<', after.createdAt), eb.and([eb('d.created_at', '=', after.createdAt), eb('d.id', '<', after.id)])]));
    }
    const rows = await q.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(query.limit).execute();
    return rows.map((row) => ({
      diagram: toMeta(row),
      access: { ownerId: row.owner_id, shareRole: row.share_role as ShareRole | null, workspaceRole: row.workspace_role as WorkspaceRole | null },
    }));
  }

  async invite(invitation: InvitationRecord): Promise<InvitationRecord> {
    const values = {
      id: invitation.id,
      email: invitation.email,
      kind: invitation.target.kind,
      target_id: targetId(invitation),
      role: invitation.target.role,
      inviter_id: invitation.inviterId,
      created_at: invitation.createdAt,
      expires_at: invitation.expiresAt,
      accepted_at: invitation.acceptedAt,
    };
    const { id: _id, email: _email, kind: _kind, target_id: _target, ...replaced } = values;
    await this.scope.db
      .insertInto('invitations')
      .values(values)
      .onConflict((oc) => oc.columns(['kind', 'target_id', 'email']).doUpdateSet({ ...replaced, id: invitation.id }))
      .execute();
    return invitation;
  }

  async findInvitation(id: string): Promise<InvitationRecord | null> {
    const row = await this.scope.db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toInvitation(row) : null;
  }

  async pendingInvitations(target: { kind: 'diagram' | 'workspace'; id: string }, now: string): Promise<InvitationRecord[]> {
    const rows = await this.scope.db
      .selectFrom('invitations')
      .selectAll()
      .where('kind', '=', target.kind)
      .where('target_id', '=', target.id)
      .where('accepted_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at')
      .orderBy('email')
      .execute();
    return rows.map(toInvitation);
  }

  async hasPendingInvitation(email: string, now: string): Promise<boolean> {
    const row = await this.scope.db
      .selectFrom('invitations')
      .select('id')
      .where('email', '=', email)
      .where('accepted_at', 'is', null)
      .where('expires_at', '>', now)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async cancelInvitation(id: string): Promise<boolean> {
    const result = await this.scope.db.deleteFrom('invitations').where('id', '=', id).where('accepted_at', 'is', null).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  acceptInvitations(email: string, userId: string, now: string, reward: InvitationReward): Promise<InvitationRecord[]> {
    return this.scope.atomic(async (trx) => {
      const pending = await trx
        .selectFrom('invitations')
        .selectAll()
        .where('email', '=', email)
        .where('accepted_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at')
        .$if(this.scope.engine === 'postgres', (q) => q.forUpdate())
        .execute();
      const accepted: InvitationRecord[] = [];
      for (const row of pending.map(toInvitation)) {
        if (!(await grant(trx, row, userId, now))) continue;
        await trx.updateTable('invitations').set({ accepted_at: now }).where('id', '=', row.id).execute();
        accepted.push({ ...row, acceptedAt: now });
      }
      const inviters = new Set(accepted.map((invitation) => invitation.inviterId).filter((id) => id !== userId));
      for (const inviterId of inviters) await rewardInviter(trx, this.scope.engine === 'postgres', inviterId, reward);
      return accepted;
    });
  }
}

/** Turns an accepted invitation into a share or membership; false when its diagram or workspace is gone. */
async function grant(trx: Kysely<Database>, invitation: InvitationRecord, userId: string, now: string): Promise<boolean> {
  const { target } = invitation;
  if (target.kind === 'diagram') {
    const diagram = await trx.selectFrom('diagrams').select('owner_id').where('id', '=', target.diagramId).executeTakeFirst();
    if (!diagram) return false;
    if (diagram.owner_id === userId) return true;
    const existing = await trx.selectFrom('diagram_shares').select('role').where('diagram_id', '=', target.diagramId).where('user_id', '=', userId).executeTakeFirst();
    if (!existing) {
      await trx.insertInto('diagram_shares').values({ diagram_id: target.diagramId, user_id: userId, role: target.role, created_at: now }).execute();
    } else if (SHARE_RANK[existing.role as ShareRole] < SHARE_RANK[target.role]) {
      await trx.updateTable('diagram_shares').set({ role: target.role }).where('diagram_id', '=', target.diagramId).where('user_id', '=', userId).execute();
    }
    return true;
  }
  const workspace = await trx.selectFrom('workspaces').select('id').where('id', '=', target.workspaceId).executeTakeFirst();
  if (!workspace) return false;
  const existing = await trx.selectFrom('workspace_members').select('role').where('workspace_id', '=', target.workspaceId).where('user_id', '=', userId).executeTakeFirst();
  if (!existing) {
    await trx.insertInto('workspace_members').values({ workspace_id: target.workspaceId, user_id: userId, role: target.role, joined_at: now }).execute();
  } else if (WORKSPACE_RANK[existing.role as WorkspaceRole] < WORKSPACE_RANK[target.role]) {
    await trx.updateTable('workspace_members').set({ role: target.role }).where('workspace_id', '=', target.workspaceId).where('user_id', '=', userId).execute();
  }
  return true;
}

/** Adds the reward to the inviter's quota, held to the cap of what invitations may earn; an unlimited quota (negative) stays as it is. */
async function rewardInviter(trx: Kysely<Database>, lock: boolean, inviterId: string, reward: InvitationReward): Promise<void> {
  const inviter = await trx
    .selectFrom('users')
    .select(['quota', 'quota_earned'])
    .where('id', '=', inviterId)
    .$if(lock, (q) => q.forUpdate())
    .executeTakeFirst();
  if (!inviter || Number(inviter.quota) < 0) return;
  const earned = Number(inviter.quota_earned);
  const gain = Math.max(0, Math.min(reward.bonus, reward.cap - earned));
  if (gain === 0) return;
  await trx
    .updateTable('users')
    .set({ quota: Number(inviter.quota) + gain, quota_earned: earned + gain })
    .where('id', '=', inviterId)
    .execute();
}

/** What a move between workspaces says in the history: `moved into workspace "Platform"`. */


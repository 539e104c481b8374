import type { ShareRole, WorkspaceRole } from '../../auth/policy.ts';
import type { SharingStore, WorkspaceRecord } from '../sharing.ts';
import type { SqlScope } from './scope.ts';

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
      await trx.insertInto('workspace_members').values({ workspace_id: workspace.id, user_id: workspace.ownerId, role: 'admin' }).execute();
    });
    return workspace;
  }

  async findWorkspace(id: string): Promise<WorkspaceRecord | null> {
    const row = await this.scope.db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? { id: row.id, name: row.name, ownerId: row.owner_id, createdAt: row.created_at } : null;
  }

  async setWorkspaceMember(workspaceId: string, userId: string, role: WorkspaceRole): Promise<void> {
    await this.scope.db
      .insertInto('workspace_members')
      .values({ workspace_id: workspaceId, user_id: userId, role })
      .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet({ role }))
      .execute();
  }

  async setDiagramWorkspace(diagramId: string, workspaceId: string | null): Promise<void> {
    await this.scope.db.updateTable('diagrams').set({ workspace_id: workspaceId }).where('id', '=', diagramId).execute();
  }

  async shareDiagram(diagramId: string, userId: string, role: ShareRole): Promise<void> {
    await this.scope.db
      .insertInto('diagram_shares')
      .values({ diagram_id: diagramId, user_id: userId, role })
      .onConflict((oc) => oc.columns(['diagram_id', 'user_id']).doUpdateSet({ role }))
      .execute();
  }
}

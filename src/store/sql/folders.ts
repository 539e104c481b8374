import type { Selectable } from 'kysely';
import type { FolderRecord, FolderStore } from '../folders.ts';
import type { FoldersTable } from '../schema.ts';
import type { SqlScope } from './scope.ts';

const toFolder = (r: Selectable<FoldersTable>): FolderRecord => ({
  id: r.id,
  ownerId: r.owner_id,
  name: r.name,
  parentId: r.parent_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class SqlFolders implements FolderStore {
  private readonly scope: SqlScope;

  constructor(scope: SqlScope) {
    this.scope = scope;
  }

  async list(ownerId: string): Promise<FolderRecord[]> {
    const rows = await this.scope.db
      .selectFrom('folders')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return rows.map(toFolder);
  }

  async find(id: string): Promise<FolderRecord | null> {
    const row = await this.scope.db.selectFrom('folders').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toFolder(row) : null;
  }

  async create(folder: FolderRecord): Promise<FolderRecord> {
    await this.scope.db
      .insertInto('folders')
      .values({
        id: folder.id,
        owner_id: folder.ownerId,
        name: folder.name,
        parent_id: folder.parentId,
        created_at: folder.createdAt,
        updated_at: folder.updatedAt,
      })
      .execute();
    return folder;
  }

  async rename(id: string, name: string, now: string): Promise<FolderRecord | null> {
    await this.scope.db.updateTable('folders').set({ name, updated_at: now }).where('id', '=', id).execute();
    return this.find(id);
  }

  async delete(id: string, now: string): Promise<void> {
    await this.scope.atomic(async (trx) => {
      const folder = await trx.selectFrom('folders').select(['parent_id']).where('id', '=', id).executeTakeFirst();
      if (!folder) return;
      await trx.updateTable('diagrams').set({ folder_id: null, updated_at: now }).where('folder_id', '=', id).execute();
      await trx.updateTable('folders').set({ parent_id: folder.parent_id, updated_at: now }).where('parent_id', '=', id).execute();
      await trx.deleteFrom('folders').where('id', '=', id).execute();
    });
  }
}

import type pg from 'pg';
import { type Compilable, type Kysely, type Selectable, type Transaction, sql } from 'kysely';
import type { AccessFacts, ShareRole, WorkspaceRole } from '../auth/policy.ts';
import { parseCapabilityList } from '../auth/capabilities.ts';
import { ElementsCache } from './elements-cache.ts';
import type { Engine } from './migrations.ts';
import type { Database, DiagramsTable, FoldersTable, PublicLinksTable, TokensTable, UsersTable } from './schema.ts';
import { nextRevision } from './revision.ts';
import {
  type CommentRecord,
  type ContentWrite,
  type ContentWriteResult,
  type DiagramMeta,
  type DiagramRecord,
  type EmailTokenPurpose,
  type FolderRecord,
  type OwnedDiagramCounts,
  type OwnedDiagramsQuery,
  type PublicLinkRecord,
  type SessionRecord,
  type Store,
  StoreConflict,
  type TokenRecord,
  type UserRecord,
  type WorkspaceRecord,
} from './store.ts';

const toUser = (r: Omit<Selectable<UsersTable>, 'password_hash'>): UserRecord => ({
  id: r.id,
  email: r.email,
  emailVerified: r.email_verified === 1,
  quota: Number(r.quota),
  createdAt: r.created_at,
});

const toToken = (r: Selectable<TokensTable>): TokenRecord => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  last4: r.last4,
  capabilities: parseCapabilityList(r.capabilities),
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  lastUsedAt: r.last_used_at,
});

type MetaRow = Omit<Selectable<DiagramsTable>, 'elements'>;
const toMeta = (r: MetaRow): DiagramMeta => ({
  id: r.id,
  ownerId: r.owner_id,
  title: r.title,
  folderId: r.folder_id,
  workspaceId: r.workspace_id,
  starred: r.starred === 1,
  elementCount: Number(r.element_count),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  docUpdatedAt: r.doc_updated_at,
  deletedAt: r.deleted_at,
});

const toFolder = (r: Selectable<FoldersTable>): FolderRecord => ({
  id: r.id,
  ownerId: r.owner_id,
  name: r.name,
  parentId: r.parent_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toLink = (r: Selectable<PublicLinksTable>): PublicLinkRecord => ({
  diagramId: r.diagram_id,
  slug: r.slug,
  enabled: r.enabled === 1,
  passwordHash: r.password_hash,
  version: Number(r.version),
  updatedAt: r.updated_at,
});

const META_COLUMNS = [
  'd.id',
  'd.owner_id',
  'd.title',
  'd.folder_id',
  'd.workspace_id',
  'd.starred',
  'd.element_count',
  'd.created_at',
  'd.updated_at',
  'd.doc_updated_at',
  'd.deleted_at',
] as const;

/** Memory for recently read scenes (characters of JSON). */
const ELEMENTS_CACHE_BYTES = 64 * 1024 * 1024;

const PARAM = '\u0000param:';
/** A named placeholder for a query compiled once (see `prepared`). */
const param = (name: string) => `${PARAM}${name}`;

/**
 * Compiles a query once and runs it with named values in place of `param(name)`
 * placeholders: hot-path queries skip Kysely's per-call building and compiling.
 */
function prepared<Row>(db: Kysely<Database>, query: Compilable<Row>) {
  const compiled = query.compile();
  return async (values: Record<string, unknown>): Promise<Row[]> => {
    const parameters = compiled.parameters.map((p) => (typeof p === 'string' && p.startsWith(PARAM) ? values[p.slice(PARAM.length)] : p));
    const result = await db.executeQuery<Row>({ ...compiled, parameters });
    return result.rows;
  };
}

/** The queries every API request runs, compiled once per store. */
function hotQueries(db: Kysely<Database>) {
  const withAccess = () =>
    db
      .selectFrom('diagrams as d')
      .leftJoin('diagram_shares as s', (join) => join.onRef('s.diagram_id', '=', 'd.id').on('s.user_id', '=', param('userId')))
      .leftJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'd.workspace_id').on('m.user_id', '=', param('userId')))
      .select(META_COLUMNS)
      .select(['s.role as share_role', 'm.role as workspace_role'])
      .where('d.id', '=', param('id'));
  return {
    credential: prepared(
      db,
      db
        .selectFrom('tokens as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .selectAll('t')
        .select(['u.email', 'u.email_verified', 'u.quota', 'u.created_at as user_created_at'])
        .select((eb) => eb.selectFrom('settings').select('value').where('key', '=', 'api_enabled').as('api_setting'))
        .where('t.token_hash', '=', param('hash')),
    ),
    apiSetting: prepared(db, db.selectFrom('settings').select('value').where('key', '=', 'api_enabled')),
    elements: prepared(db, db.selectFrom('diagrams').select(['elements', 'doc_updated_at']).where('id', '=', param('id'))),
    metaWithAccess: prepared(db, withAccess()),
  };
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** The Store over Kysely; the same queries run on SQLite and PostgreSQL. */
export class SqlStore implements Store {
  readonly engine: Engine;
  readonly db: Kysely<Database>;
  /** The PostgreSQL pool, for components that share it (rate limits); null on SQLite. */
  pgPool: pg.Pool | null = null;
  private readonly onClose: () => Promise<void>;
  private readonly queries: ReturnType<typeof hotQueries>;
  private readonly elementsCache = new ElementsCache(ELEMENTS_CACHE_BYTES);

  constructor(db: Kysely<Database>, engine: Engine, onClose: () => Promise<void> = async () => {}) {
    this.db = db;
    this.engine = engine;
    this.queries = hotQueries(db);
    this.onClose = onClose;
  }

  async close(): Promise<void> {
    await this.db.destroy();
    await this.onClose();
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  /** Locks the user's row for the rest of the transaction (PostgreSQL; SQLite transactions are already serial). */
  private async lockUser(trx: Transaction<Database>, userId: string): Promise<void> {
    if (this.engine === 'postgres') {
      await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    }
  }

  async createUser(user: UserRecord): Promise<UserRecord> {
    try {
      await this.db
        .insertInto('users')
        .values({
          id: user.id,
          email: user.email,
          email_verified: user.emailVerified ? 1 : 0,
          quota: user.quota,
          created_at: user.createdAt,
          password_hash: null,
        })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new StoreConflict(`a user with email ${user.email} already exists`);
      throw error;
    }
    return user;
  }

  async findUserByEmail(email: string): Promise<UserRecord | null> {
    const row = await this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async findUserById(id: string): Promise<UserRecord | null> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async setEmailVerified(userId: string, verified: boolean): Promise<void> {
    await this.db.updateTable('users').set({ email_verified: verified ? 1 : 0 }).where('id', '=', userId).execute();
  }

  async setQuota(userId: string, quota: number): Promise<void> {
    await this.db.updateTable('users').set({ quota }).where('id', '=', userId).execute();
  }

  async findPasswordHash(userId: string): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
    return row?.password_hash ?? null;
  }

  async setPasswordHash(userId: string, hash: string): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
  }

  async createSession(session: SessionRecord): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({ id_hash: session.idHash, user_id: session.userId, csrf_token: session.csrfToken, created_at: session.createdAt, expires_at: session.expiresAt })
      .execute();
  }

  async findSession(idHash: string, now: string): Promise<{ session: SessionRecord; user: UserRecord } | null> {
    const row = await this.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.id_hash', 's.user_id', 's.csrf_token', 's.created_at', 's.expires_at', 'u.id', 'u.email', 'u.email_verified', 'u.quota', 'u.created_at as user_created_at'])
      .where('s.id_hash', '=', idHash)
      .where('s.expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return null;
    return {
      session: { idHash: row.id_hash, userId: row.user_id, csrfToken: row.csrf_token, createdAt: row.created_at, expiresAt: row.expires_at },
      user: { id: row.id, email: row.email, emailVerified: row.email_verified === 1, quota: Number(row.quota), createdAt: row.user_created_at },
    };
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  }

  async deleteSessionsOfUser(userId: string, except?: string): Promise<void> {
    let query = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (except !== undefined) query = query.where('id_hash', '!=', except);
    await query.execute();
  }

  async createEmailToken(token: { tokenHash: string; userId: string; purpose: EmailTokenPurpose; createdAt: string; expiresAt: string }): Promise<void> {
    await this.db
      .insertInto('email_tokens')
      .values({ token_hash: token.tokenHash, user_id: token.userId, purpose: token.purpose, created_at: token.createdAt, expires_at: token.expiresAt, used_at: null })
      .execute();
  }

  async consumeEmailToken(tokenHash: string, purpose: EmailTokenPurpose, now: string): Promise<string | null> {
    // One statement: two requests racing for one link cannot both use it.
    const row = await this.db
      .updateTable('email_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  async deleteEmailTokensOfUser(userId: string, purpose: EmailTokenPurpose): Promise<void> {
    await this.db.deleteFrom('email_tokens').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
  }

  async purgeExpired(now: string): Promise<{ sessions: number; emailTokens: number }> {
    const sessions = await this.db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
    const emailTokens = await this.db.deleteFrom('email_tokens').where('expires_at', '<=', now).executeTakeFirst();
    return { sessions: Number(sessions.numDeletedRows), emailTokens: Number(emailTokens.numDeletedRows) };
  }

  async setDiagramStarred(id: string, starred: boolean): Promise<void> {
    await this.db.updateTable('diagrams').set({ starred: starred ? 1 : 0 }).where('id', '=', id).execute();
  }

  async insertToken(token: TokenRecord, tokenHash: string): Promise<void> {
    await this.db
      .insertInto('tokens')
      .values({
        id: token.id,
        user_id: token.userId,
        name: token.name,
        token_hash: tokenHash,
        last4: token.last4,
        capabilities: token.capabilities.join(','),
        created_at: token.createdAt,
        expires_at: token.expiresAt,
        revoked_at: token.revokedAt,
        last_used_at: token.lastUsedAt,
      })
      .execute();
  }

  async findCredential(tokenHash: string): Promise<{ token: TokenRecord; user: UserRecord; apiEnabled: boolean } | null> {
    const [row] = await this.queries.credential({ hash: tokenHash });
    if (!row) return null;
    return {
      token: toToken(row),
      user: toUser({
        id: row.user_id,
        email: row.email,
        email_verified: row.email_verified,
        quota: row.quota,
        created_at: row.user_created_at,
      }),
      apiEnabled: row.api_setting !== 'false',
    };
  }

  async findToken(id: string): Promise<TokenRecord | null> {
    const row = await this.db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toToken(row) : null;
  }

  async revokeToken(id: string, now: string): Promise<TokenRecord | null> {
    await this.db.updateTable('tokens').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    return this.findToken(id);
  }

  async listTokens(userId: string): Promise<TokenRecord[]> {
    const rows = await this.db
      .selectFrom('tokens')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toToken);
  }

  async touchToken(id: string, now: string): Promise<void> {
    await this.db.updateTable('tokens').set({ last_used_at: now }).where('id', '=', id).execute();
  }

  async isApiEnabled(): Promise<boolean> {
    const [row] = await this.queries.apiSetting({});
    return row?.value !== 'false';
  }

  async setApiEnabled(enabled: boolean): Promise<void> {
    const value = enabled ? 'true' : 'false';
    await this.db
      .insertInto('settings')
      .values({ key: 'api_enabled', value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }

  async createWorkspace(workspace: WorkspaceRecord): Promise<WorkspaceRecord> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('workspaces')
        .values({ id: workspace.id, name: workspace.name, owner_id: workspace.ownerId, created_at: workspace.createdAt })
        .execute();
      await trx.insertInto('workspace_members').values({ workspace_id: workspace.id, user_id: workspace.ownerId, role: 'admin' }).execute();
    });
    return workspace;
  }

  async findWorkspace(id: string): Promise<WorkspaceRecord | null> {
    const row = await this.db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? { id: row.id, name: row.name, ownerId: row.owner_id, createdAt: row.created_at } : null;
  }

  async setWorkspaceMember(workspaceId: string, userId: string, role: WorkspaceRole): Promise<void> {
    await this.db
      .insertInto('workspace_members')
      .values({ workspace_id: workspaceId, user_id: userId, role })
      .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet({ role }))
      .execute();
  }

  async createDiagram(diagram: DiagramRecord, quota: number): Promise<'created' | 'quota_exceeded'> {
    return this.db.transaction().execute(async (trx) => {
      await this.lockUser(trx, diagram.ownerId);
      const { active } = await trx
        .selectFrom('diagrams')
        .select((eb) => eb.fn.countAll<number>().as('active'))
        .where('owner_id', '=', diagram.ownerId)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(active) >= quota) return 'quota_exceeded';
      await trx
        .insertInto('diagrams')
        .values({
          id: diagram.id,
          owner_id: diagram.ownerId,
          title: diagram.title,
          folder_id: diagram.folderId,
          workspace_id: diagram.workspaceId,
          starred: diagram.starred ? 1 : 0,
          elements: diagram.elementsJson,
          element_count: diagram.elementCount,
          created_at: diagram.createdAt,
          updated_at: diagram.updatedAt,
          doc_updated_at: diagram.docUpdatedAt,
          deleted_at: diagram.deletedAt,
        })
        .execute();
      return 'created';
    });
  }

  async findDiagram(id: string): Promise<DiagramMeta | null> {
    const row = await this.db.selectFrom('diagrams as d').select(META_COLUMNS).where('d.id', '=', id).executeTakeFirst();
    return row ? toMeta(row) : null;
  }

  private static access(row: { owner_id: string; share_role: string | null; workspace_role: string | null }): AccessFacts {
    return {
      ownerId: row.owner_id,
      shareRole: row.share_role as ShareRole | null,
      workspaceRole: row.workspace_role as WorkspaceRole | null,
    };
  }

  async findDiagramForUser(id: string, userId: string) {
    const [row] = await this.queries.metaWithAccess({ id, userId });
    if (!row) return null;
    const meta = toMeta(row);
    let elementsJson = this.elementsCache.get(id, meta.docUpdatedAt);
    if (elementsJson === undefined) {
      const [content] = await this.queries.elements({ id });
      if (!content) return null;
      elementsJson = content.elements;
      // Report the revision of the elements actually read, should a write land in between.
      meta.docUpdatedAt = content.doc_updated_at;
      this.elementsCache.set(id, meta.docUpdatedAt, elementsJson);
    }
    return { diagram: { ...meta, elementsJson }, access: SqlStore.access(row) };
  }

  async findDiagramMetaForUser(id: string, userId: string) {
    const [row] = await this.queries.metaWithAccess({ id, userId });
    if (!row) return null;
    return { diagram: toMeta(row), access: SqlStore.access(row) };
  }

  async listOwnedDiagrams(query: OwnedDiagramsQuery) {
    let q = this.db
      .selectFrom('diagrams as d')
      .select(META_COLUMNS)
      .where('d.owner_id', '=', query.ownerId)
      .where('d.deleted_at', query.trashed ? 'is not' : 'is', null);
    if (query.folderId !== undefined) q = q.where('d.folder_id', '=', query.folderId);
    if (query.starredOnly) q = q.where('d.starred', '=', 1);
    if (query.titleContains) {
      // Both sides through the same lower(), so an exact-case match is always found on either engine.
      const pattern = `%${query.titleContains.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where(sql<boolean>`lower(d.title) like lower(${pattern}) escape '\\'`);
    }
    const after = query.after;
    if (after) {
      q = q.where((eb) =>
        eb.or([eb('d.created_at', '<', after.createdAt), eb.and([eb('d.created_at', '=', after.createdAt), eb('d.id', '<', after.id)])]),
      );
    }
    const rows = await q.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(query.limit).execute();
    return rows.map(toMeta);
  }

  async countOwnedDiagrams(ownerId: string): Promise<OwnedDiagramCounts> {
    const trashed = sql<number>`case when deleted_at is null then 0 else 1 end`;
    const rows = await this.db
      .selectFrom('diagrams')
      .select((eb) => ['folder_id', 'starred', trashed.as('trashed'), eb.fn.countAll<number | string>().as('count')])
      .where('owner_id', '=', ownerId)
      .groupBy(['folder_id', 'starred', trashed])
      .execute();
    const counts: OwnedDiagramCounts = { active: 0, starred: 0, trashed: 0, byFolder: {} };
    for (const row of rows) {
      const count = Number(row.count);
      if (Number(row.trashed) === 1) {
        counts.trashed += count;
        continue;
      }
      counts.active += count;
      if (row.starred === 1) counts.starred += count;
      if (row.folder_id !== null) counts.byFolder[row.folder_id] = (counts.byFolder[row.folder_id] ?? 0) + count;
    }
    return counts;
  }

  async updateDiagramMeta(id: string, change: { title?: string; folderId?: string | null; updatedAt: string }) {
    const set: { title?: string; folder_id?: string | null; updated_at: string } = { updated_at: change.updatedAt };
    if (change.title !== undefined) set.title = change.title;
    if (change.folderId !== undefined) set.folder_id = change.folderId;
    await this.db.updateTable('diagrams').set(set).where('id', '=', id).execute();
    return this.findDiagram(id);
  }

  async setDiagramTrashed(id: string, trashed: boolean, now: string): Promise<void> {
    if (trashed) {
      await this.db.updateTable('diagrams').set({ deleted_at: now, updated_at: now }).where('id', '=', id).where('deleted_at', 'is', null).execute();
    } else {
      await this.db.updateTable('diagrams').set({ deleted_at: null, updated_at: now }).where('id', '=', id).where('deleted_at', 'is not', null).execute();
    }
  }

  async setDiagramWorkspace(id: string, workspaceId: string | null): Promise<void> {
    await this.db.updateTable('diagrams').set({ workspace_id: workspaceId }).where('id', '=', id).execute();
  }

  async shareDiagram(diagramId: string, userId: string, role: ShareRole): Promise<void> {
    await this.db
      .insertInto('diagram_shares')
      .values({ diagram_id: diagramId, user_id: userId, role })
      .onConflict((oc) => oc.columns(['diagram_id', 'user_id']).doUpdateSet({ role }))
      .execute();
  }

  async writeContent(write: ContentWrite): Promise<ContentWriteResult> {
    const result: ContentWriteResult = await this.db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('diagrams')
        .select(['doc_updated_at'])
        .where('id', '=', write.id)
        .$if(this.engine === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      if (!current) return { status: 'missing' } as const;
      if (write.expectedDocUpdatedAt !== null && write.expectedDocUpdatedAt !== current.doc_updated_at) {
        return { status: 'stale', docUpdatedAt: current.doc_updated_at } as const;
      }
      const docUpdatedAt = nextRevision(current.doc_updated_at, write.now);
      await trx
        .updateTable('diagrams')
        .set({
          elements: write.elementsJson,
          element_count: write.elementCount,
          doc_updated_at: docUpdatedAt,
          updated_at: docUpdatedAt,
          ...(write.title === undefined ? {} : { title: write.title }),
        })
        .where('id', '=', write.id)
        .execute();
      const open = await trx
        .selectFrom('comments')
        .select(['id', 'element_id'])
        .where('diagram_id', '=', write.id)
        .where('resolved', '=', 0)
        .where('element_id', 'is not', null)
        .execute();
      const orphaned = open.filter((c) => !write.elementIds.has(c.element_id!)).map((c) => c.id);
      for (let i = 0; i < orphaned.length; i += 500) {
        await trx
          .updateTable('comments')
          .set({ resolved: 1, resolved_reason: 'element_removed' })
          .where('id', 'in', orphaned.slice(i, i + 500))
          .execute();
      }
      return { status: 'written', docUpdatedAt, orphanedComments: orphaned.length } as const;
    });
    // The next read of this diagram (often the writer's own) finds the new content in memory.
    if (result.status === 'written') this.elementsCache.set(write.id, result.docUpdatedAt, write.elementsJson);
    return result;
  }

  async addComment(comment: CommentRecord): Promise<CommentRecord> {
    await this.db
      .insertInto('comments')
      .values({
        id: comment.id,
        diagram_id: comment.diagramId,
        element_id: comment.elementId,
        body: comment.body,
        author_id: comment.authorId,
        created_at: comment.createdAt,
        resolved: comment.resolved ? 1 : 0,
        resolved_reason: comment.resolvedReason,
      })
      .execute();
    return comment;
  }

  async listComments(diagramId: string): Promise<CommentRecord[]> {
    const rows = await this.db
      .selectFrom('comments')
      .selectAll()
      .where('diagram_id', '=', diagramId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      diagramId: r.diagram_id,
      elementId: r.element_id,
      body: r.body,
      authorId: r.author_id,
      createdAt: r.created_at,
      resolved: r.resolved === 1,
      resolvedReason: r.resolved_reason,
    }));
  }

  async listFolders(ownerId: string): Promise<FolderRecord[]> {
    const rows = await this.db
      .selectFrom('folders')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return rows.map(toFolder);
  }

  async findFolder(id: string): Promise<FolderRecord | null> {
    const row = await this.db.selectFrom('folders').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toFolder(row) : null;
  }

  async createFolder(folder: FolderRecord): Promise<FolderRecord> {
    await this.db
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

  async renameFolder(id: string, name: string, now: string): Promise<FolderRecord | null> {
    await this.db.updateTable('folders').set({ name, updated_at: now }).where('id', '=', id).execute();
    return this.findFolder(id);
  }

  async deleteFolder(id: string, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const folder = await trx.selectFrom('folders').select(['parent_id']).where('id', '=', id).executeTakeFirst();
      if (!folder) return;
      await trx.updateTable('diagrams').set({ folder_id: null, updated_at: now }).where('folder_id', '=', id).execute();
      await trx.updateTable('folders').set({ parent_id: folder.parent_id, updated_at: now }).where('parent_id', '=', id).execute();
      await trx.deleteFrom('folders').where('id', '=', id).execute();
    });
  }

  async findPublicLink(diagramId: string): Promise<PublicLinkRecord | null> {
    const row = await this.db.selectFrom('public_links').selectAll().where('diagram_id', '=', diagramId).executeTakeFirst();
    return row ? toLink(row) : null;
  }

  async updatePublicLink(
    diagramId: string,
    change: { enabled: boolean; passwordHash?: string | null },
    slugIfNew: string,
    now: string,
  ): Promise<PublicLinkRecord> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('public_links')
        .selectAll()
        .where('diagram_id', '=', diagramId)
        .$if(this.engine === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      if (!existing) {
        const created = {
          diagram_id: diagramId,
          slug: slugIfNew,
          enabled: change.enabled ? 1 : 0,
          password_hash: change.passwordHash ?? null,
          version: 1,
          updated_at: now,
        };
        // Two first PUTs racing: the loser's insert conflicts and it retries as an update.
        const inserted = await trx.insertInto('public_links').values(created).onConflict((oc) => oc.column('diagram_id').doNothing()).executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return toLink(created);
      }
      const set: { enabled: number; updated_at: string; password_hash?: string | null; version: any } = {
        enabled: change.enabled ? 1 : 0,
        updated_at: now,
        version: sql`version + 1`,
      };
      if (change.passwordHash !== undefined) set.password_hash = change.passwordHash;
      await trx.updateTable('public_links').set(set).where('diagram_id', '=', diagramId).execute();
      const row = await trx.selectFrom('public_links').selectAll().where('diagram_id', '=', diagramId).executeTakeFirstOrThrow();
      return toLink(row);
    });
  }

  async findPublicLinkBySlug(slug: string): Promise<{ link: PublicLinkRecord; diagram: DiagramRecord } | null> {
    const row = await this.db
      .selectFrom('public_links as l')
      .innerJoin('diagrams as d', 'd.id', 'l.diagram_id')
      .select(['l.diagram_id', 'l.slug', 'l.enabled', 'l.password_hash', 'l.version', 'l.updated_at as link_updated_at'])
      .select(META_COLUMNS)
      .select('d.elements')
      .where('l.slug', '=', slug)
      .executeTakeFirst();
    if (!row) return null;
    return { link: toLink({ ...row, updated_at: row.link_updated_at }), diagram: { ...toMeta(row), elementsJson: row.elements } };
  }
}

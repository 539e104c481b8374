import { type Kysely, sql } from 'kysely';
import type { AccessFacts, ShareRole, WorkspaceRole } from '../../auth/policy.ts';
import type {
  ContentWrite,
  ContentWriteResult,
  DiagramMeta,
  DiagramRecord,
  DiagramStore,
  OwnedDiagramCounts,
  OwnedDiagramsQuery,
} from '../diagrams.ts';
import { ElementsCache } from '../elements-cache.ts';
import type { LiveBus, LiveNotice } from '../live-bus.ts';
import { PostgresLiveBus } from './pg-live-bus.ts';
import { nextRevision } from '../revision.ts';
import { titleSearchKey } from '../title-search.ts';
import type { Database } from '../schema.ts';
import type { ChangeRecording, MetaChange, RevisionInput } from '../history.ts';
import { reopenCommentsOnReturnedElements, resolveCommentsOnRemovedElements } from './comments.ts';
import { namedPair, recordContentRevision, recordEvent } from './history.ts';
import { META_COLUMNS, toMeta } from './rows.ts';
import { param, prepared, type SqlScope } from './scope.ts';

/** Memory for recently read scenes (characters of JSON). */
const ELEMENTS_CACHE_BYTES = 64 * 1024 * 1024;

/** What every scope of one store's diagrams shares: the queries every API request runs, compiled once, and the scene cache. */
export function diagramsShared(db: Kysely<Database>, bus: LiveBus) {
  const withAccess = db
    .selectFrom('diagrams as d')
    .leftJoin('diagram_shares as s', (join) => join.onRef('s.diagram_id', '=', 'd.id').on('s.user_id', '=', param('userId')))
    .leftJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'd.workspace_id').on('m.user_id', '=', param('userId')))
    .select(META_COLUMNS)
    .select(['s.role as share_role', 'm.role as workspace_role'])
    .where('d.id', '=', param('id'));
  return {
    elements: prepared(db.selectFrom('diagrams').select(['elements', 'doc_updated_at']).where('id', '=', param('id'))),
    metaWithAccess: prepared(withAccess),
    elementsCache: new ElementsCache(ELEMENTS_CACHE_BYTES),
    bus,
  };
}

const access = (row: { owner_id: string; share_role: string | null; workspace_role: string | null }): AccessFacts => ({
  ownerId: row.owner_id,
  shareRole: row.share_role as ShareRole | null,
  workspaceRole: row.workspace_role as WorkspaceRole | null,
});

export class SqlDiagrams implements DiagramStore {
  private readonly scope: SqlScope;
  private readonly shared: ReturnType<typeof diagramsShared>;

  constructor(scope: SqlScope, shared: ReturnType<typeof diagramsShared>) {
    this.scope = scope;
    this.shared = shared;
  }

  async create(diagram: DiagramRecord, quota: number, revision: RevisionInput | null): Promise<'created' | 'quota_exceeded'> {
    return this.scope.atomic(async (trx) => {
      // Without a limit there is nothing to count, and nothing to serialise.
      if (Number.isFinite(quota)) {
        // Lock the owner's row for the rest of the transaction (PostgreSQL; SQLite transactions are already serial).
        if (this.scope.engine === 'postgres') {
          await trx.selectFrom('users').select('id').where('id', '=', diagram.ownerId).forUpdate().execute();
        }
        const { active } = await trx
          .selectFrom('diagrams')
          .select((eb) => eb.fn.countAll<number>().as('active'))
          .where('owner_id', '=', diagram.ownerId)
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (Number(active) >= quota) return 'quota_exceeded';
      }
      await trx
        .insertInto('diagrams')
        .values({
          id: diagram.id,
          owner_id: diagram.ownerId,
          title: diagram.title,
          title_key: titleSearchKey(diagram.title),
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
      if (revision !== null) {
        await recordContentRevision(trx, {
          diagramId: diagram.id,
          docUpdatedAt: diagram.docUpdatedAt ?? diagram.createdAt,
          elementsJson: diagram.elementsJson,
          elementCount: diagram.elementCount,
          revision: { ...revision, delta: null },
          baseline: null,
        });
      }
      return 'created';
    });
  }

  async find(id: string): Promise<DiagramMeta | null> {
    const row = await this.scope.db.selectFrom('diagrams as d').select(META_COLUMNS).where('d.id', '=', id).executeTakeFirst();
    return row ? toMeta(row) : null;
  }

  async findForUser(id: string, userId: string) {
    const [row] = await this.shared.metaWithAccess(this.scope.db, { id, userId });
    if (!row) return null;
    const meta = toMeta(row);
    let elementsJson = this.shared.elementsCache.get(id, meta.docUpdatedAt);
    if (elementsJson === undefined) {
      const [content] = await this.shared.elements(this.scope.db, { id });
      if (!content) return null;
      const { elements, doc_updated_at: revision } = content;
      elementsJson = elements;
      // Report the revision of the elements actually read, should a write land in between.
      meta.docUpdatedAt = revision;
      this.scope.afterCommit(() => this.shared.elementsCache.set(id, revision, elements));
    }
    return { diagram: { ...meta, elementsJson }, access: access(row) };
  }

  async findMetaForUser(id: string, userId: string) {
    const [row] = await this.shared.metaWithAccess(this.scope.db, { id, userId });
    if (!row) return null;
    return { diagram: toMeta(row), access: access(row) };
  }

  async listOwned(query: OwnedDiagramsQuery) {
    let q = this.scope.db
      .selectFrom('diagrams as d')
      .select(META_COLUMNS)
      .where('d.owner_id', '=', query.ownerId)
      .where('d.deleted_at', query.trashed ? 'is not' : 'is', null);
    if (query.folderId !== undefined) q = q.where('d.folder_id', query.folderId === null ? 'is' : '=', query.folderId);
    if (query.starred !== undefined) q = q.where('d.starred', '=', query.starred ? 1 : 0);
    if (query.titleContains) {
      // A plain substring test on both sides' folded form: no LIKE, so no character is a wildcard, and no engine folds case its own way.
      const needle = titleSearchKey(query.titleContains);
      q = q.where(this.scope.engine === 'postgres' ? sql<boolean>`strpos(d.title_key, ${needle}) > 0` : sql<boolean>`instr(d.title_key, ${needle}) > 0`);
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

  async countOwned(ownerId: string): Promise<OwnedDiagramCounts> {
    const trashed = sql<number>`case when deleted_at is null then 0 else 1 end`;
    const rows = await this.scope.db
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

  async updateMeta(id: string, change: { title?: string; folderId?: string | null; updatedAt: string }, recording: ChangeRecording | null) {
    const changed = await this.scope.atomic(async (trx) => {
      const before = await trx
        .selectFrom('diagrams')
        .select(['title', 'folder_id'])
        .where('id', '=', id)
        .$if(this.scope.engine === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      if (!before) return false;
      const set: { title?: string; title_key?: string; folder_id?: string | null; updated_at: string } = { updated_at: change.updatedAt };
      if (change.title !== undefined) {
        set.title = change.title;
        set.title_key = titleSearchKey(change.title);
      }
      if (change.folderId !== undefined) set.folder_id = change.folderId;
      await trx.updateTable('diagrams').set(set).where('id', '=', id).execute();
      if (recording === null) return true;
      const changed: MetaChange = {};
      if (change.title !== undefined && change.title !== before.title) changed.title = { from: before.title, to: change.title };
      if (change.folderId !== undefined && change.folderId !== before.folder_id) changed.folder = await namedPair(trx, 'folders', before.folder_id, change.folderId);
      for (const event of recording.events(changed)) await recordEvent(trx, id, change.updatedAt, event, recording.baseline);
      return true;
    });
    return changed ? this.find(id) : null;
  }

  async setTrashed(id: string, trashed: boolean, now: string): Promise<void> {
    const db = this.scope.db;
    if (trashed) {
      await db.updateTable('diagrams').set({ deleted_at: now, updated_at: now }).where('id', '=', id).where('deleted_at', 'is', null).execute();
    } else {
      await db.updateTable('diagrams').set({ deleted_at: null, updated_at: now }).where('id', '=', id).where('deleted_at', 'is not', null).execute();
    }
  }

  async setStarred(id: string, starred: boolean): Promise<void> {
    await this.scope.db.updateTable('diagrams').set({ starred: starred ? 1 : 0 }).where('id', '=', id).execute();
  }

  private contentNotice(write: ContentWrite, docUpdatedAt: string): LiveNotice {
    return { type: 'content', diagramId: write.id, docUpdatedAt, ...(write.announce ?? { changed: 'all', removed: [] }) };
  }

  async writeContent(write: ContentWrite): Promise<ContentWriteResult> {
    const result: ContentWriteResult = await this.scope.atomic(async (trx) => {
      const current = await trx
        .selectFrom('diagrams')
        .select(['doc_updated_at'])
        .where('id', '=', write.id)
        .$if(this.scope.engine === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      if (!current) return { status: 'missing' } as const;
      if (write.expectedDocUpdatedAt !== null && write.expectedDocUpdatedAt !== current.doc_updated_at) {
        return { status: 'stale', docUpdatedAt: current.doc_updated_at } as const;
      }
      const docUpdatedAt = nextRevision(current.doc_updated_at, write.now);
      // Recorded before the content is replaced: a diagram older than its history keeps what it held as its first revision.
      // The delta was taken from the revision the writer read; without an expectation that may not be the current one, so a snapshot is kept.
      const recorded = write.revision;
      const revision =
        recorded === null
          ? null
          : await recordContentRevision(trx, {
              diagramId: write.id,
              docUpdatedAt,
              elementsJson: write.elementsJson,
              elementCount: write.elementCount,
              revision: write.expectedDocUpdatedAt === null ? { ...recorded, delta: null } : recorded,
              baseline: recorded.baseline,
            });
      await trx
        .updateTable('diagrams')
        .set({
          elements: write.elementsJson,
          element_count: write.elementCount,
          doc_updated_at: docUpdatedAt,
          updated_at: docUpdatedAt,
          ...(write.title === undefined ? {} : { title: write.title, title_key: titleSearchKey(write.title) }),
        })
        .where('id', '=', write.id)
        .execute();
      const orphanedComments = await resolveCommentsOnRemovedElements(trx, write.id, write.elementIds);
      const reopenedComments = write.reopenComments ? await reopenCommentsOnReturnedElements(trx, write.id, write.elementIds) : 0;
      // On PostgreSQL the notice is sent in this transaction: other instances hear it when it commits, and never if it does not.
      if (this.scope.engine === 'postgres') await PostgresLiveBus.notifyIn(trx, this.contentNotice(write, docUpdatedAt));
      return { status: 'written', docUpdatedAt, orphanedComments, reopenedComments, revision } as const;
    });
    // The next read of this diagram (often the writer's own) finds the new content in memory.
    if (result.status === 'written') {
      const { docUpdatedAt } = result;
      this.scope.afterCommit(() => this.shared.elementsCache.set(write.id, docUpdatedAt, write.elementsJson));
      if (this.scope.engine !== 'postgres') this.scope.afterCommit(() => void this.shared.bus.publish(this.contentNotice(write, docUpdatedAt)));
    }
    return result;
  }
}

import type { Kysely } from 'kysely';
import type { CommentRecord, CommentStore } from '../comments.ts';
import type { Database } from '../schema.ts';
import type { SqlScope } from './scope.ts';

export class SqlComments implements CommentStore {
  private readonly scope: SqlScope;

  constructor(scope: SqlScope) {
    this.scope = scope;
  }

  async add(comment: CommentRecord): Promise<CommentRecord> {
    await this.scope.db
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

  async list(diagramId: string): Promise<CommentRecord[]> {
    const rows = await this.scope.db
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
}

/**
 * Resolves, as `element_removed`, the open comments of a diagram on elements
 * not in `elementIds`; how many. Part of a content write, in its transaction.
 */
export async function resolveCommentsOnRemovedElements(trx: Kysely<Database>, diagramId: string, elementIds: ReadonlySet<string>): Promise<number> {
  const open = await trx
    .selectFrom('comments')
    .select(['id', 'element_id'])
    .where('diagram_id', '=', diagramId)
    .where('resolved', '=', 0)
    .where('element_id', 'is not', null)
    .execute();
  const orphaned = open.filter((c) => !elementIds.has(c.element_id!)).map((c) => c.id);
  for (let i = 0; i < orphaned.length; i += 500) {
    await trx
      .updateTable('comments')
      .set({ resolved: 1, resolved_reason: 'element_removed' })
      .where('id', 'in', orphaned.slice(i, i + 500))
      .execute();
  }
  return orphaned.length;
}

/**
 * Opens again the comments of a diagram that were resolved because their
 * element went away, for the elements in `elementIds` (a revision brought
 * them back); how many. Part of a content write, in its transaction.
 */
export async function reopenCommentsOnReturnedElements(trx: Kysely<Database>, diagramId: string, elementIds: ReadonlySet<string>): Promise<number> {
  const closed = await trx
    .selectFrom('comments')
    .select(['id', 'element_id'])
    .where('diagram_id', '=', diagramId)
    .where('resolved', '=', 1)
    .where('resolved_reason', '=', 'element_removed')
    .execute();
  const returned = closed.filter((c) => c.element_id !== null && elementIds.has(c.element_id)).map((c) => c.id);
  for (let i = 0; i < returned.length; i += 500) {
    await trx.updateTable('comments').set({ resolved: 0, resolved_reason: null }).where('id', 'in', returned.slice(i, i + 500)).execute();
  }
  return returned.length;
}

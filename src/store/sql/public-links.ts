import { type Selectable, sql } from 'kysely';
import type { DiagramRecord } from '../diagrams.ts';
import type { PublicLinkRecord, PublicLinkStore } from '../public-links.ts';
import type { PublicLinksTable } from '../schema.ts';
import { META_COLUMNS, toMeta } from './rows.ts';
import type { SqlScope } from './scope.ts';

const toLink = (r: Selectable<PublicLinksTable>): PublicLinkRecord => ({
  diagramId: r.diagram_id,
  slug: r.slug,
  enabled: r.enabled === 1,
  passwordHash: r.password_hash,
  version: Number(r.version),
  updatedAt: r.updated_at,
});

export class SqlPublicLinks implements PublicLinkStore {
  private readonly scope: SqlScope;

  constructor(scope: SqlScope) {
    this.scope = scope;
  }

  async find(diagramId: string): Promise<PublicLinkRecord | null> {
    const row = await this.scope.db.selectFrom('public_links').selectAll().where('diagram_id', '=', diagramId).executeTakeFirst();
    return row ? toLink(row) : null;
  }

  async update(diagramId: string, change: { enabled: boolean; passwordHash?: string | null }, slugIfNew: string, now: string): Promise<PublicLinkRecord> {
    return this.scope.atomic(async (trx) => {
      const existing = await trx
        .selectFrom('public_links')
        .selectAll()
        .where('diagram_id', '=', diagramId)
        .$if(this.scope.engine === 'postgres', (q) => q.forUpdate())
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

  async findBySlug(slug: string): Promise<{ link: PublicLinkRecord; diagram: DiagramRecord } | null> {
    const row = await this.scope.db
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

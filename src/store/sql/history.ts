import type { Kysely, Selectable } from 'kysely';
import { chainElements, type SceneChain, sceneDelta } from '../../domain/history/delta.ts';
import type { SceneElement } from '../../domain/edit/types.ts';
import type { RetainedRevision } from '../../domain/history/retention.ts';
import type { ContentRevision, HistoryStore, JoinRule, Named, RevisionDetail, RevisionInput, RevisionKind, RevisionRecord, Via } from '../history.ts';
import type { Database, RevisionsTable } from '../schema.ts';
import { chainScenes, type ChainState, chainTexts, decodeChain, encodeScene, snapshotJson } from './history-payload.ts';
import type { SqlScope } from './scope.ts';

type ChainRow = Pick<Selectable<RevisionsTable>, 'seq' | 'encoding' | 'base_seq' | 'chain_length' | 'chain_bytes' | 'snapshot_bytes'>;
const CHAIN_COLUMNS = ['seq', 'encoding', 'base_seq', 'chain_length', 'chain_bytes', 'snapshot_bytes'] as const;

const chainOf = (row: ChainRow | undefined): ChainState | null =>
  row && row.encoding !== null
    ? { seq: Number(row.seq), baseSeq: Number(row.base_seq), chainLength: Number(row.chain_length), chainBytes: Number(row.chain_bytes), snapshotBytes: Number(row.snapshot_bytes) }
    : null;

async function latestContent(trx: Kysely<Database>, diagramId: string): Promise<ChainRow | undefined> {
  return trx
    .selectFrom('revisions')
    .select(CHAIN_COLUMNS)
    .where('diagram_id', '=', diagramId)
    .where('encoding', 'is not', null)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}

async function latestSeq(trx: Kysely<Database>, diagramId: string): Promise<number> {
  const row = await trx.selectFrom('revisions').select(['seq']).where('diagram_id', '=', diagramId).orderBy('seq', 'desc').limit(1).executeTakeFirst();
  return row ? Number(row.seq) : 0;
}

const revisionValues = (diagramId: string, seq: number, at: string, elementCount: number, input: RevisionInput) => ({
  diagram_id: diagramId,
  seq,
  at,
  kind: input.kind,
  user_id: input.userId,
  via: input.via === null ? null : JSON.stringify(input.via),
  element_count: elementCount,
  summary: input.summary,
  detail: input.detail === undefined ? null : JSON.stringify(input.detail),
});

/**
 * A diagram with no history yet (it predates history) gets its current
 * content as a first revision (`baseline`) before the change about to be
 * recorded, so that content can still be brought back. In the caller's
 * transaction, with the diagram's row locked. Returns the latest seq.
 */
async function ensureBaseline(trx: Kysely<Database>, diagramId: string, baseline: RevisionInput): Promise<number> {
  const seq = await latestSeq(trx, diagramId);
  if (seq > 0) return seq;
  const current = await trx.selectFrom('diagrams').select(['elements', 'element_count', 'doc_updated_at', 'created_at']).where('id', '=', diagramId).executeTakeFirstOrThrow();
  const encoded = await encodeScene(1, current.elements, null, null);
  await trx
    .insertInto('revisions')
    .values({
      ...revisionValues(diagramId, 1, current.doc_updated_at ?? current.created_at, Number(current.element_count), baseline),
      doc_updated_at: current.doc_updated_at,
      ...encodedColumns(encoded),
    })
    .execute();
  return 1;
}

const encodedColumns = (encoded: Awaited<ReturnType<typeof encodeScene>>) => ({
  encoding: encoded.encoding,
  base_seq: encoded.baseSeq,
  chain_length: encoded.chainLength,
  chain_bytes: encoded.chainBytes,
  snapshot_bytes: encoded.snapshotBytes,
  payload: encoded.payload,
});

export interface RecordedContent {
  diagramId: string;
  docUpdatedAt: string;
  elementsJson: string;
  elementCount: number;
  revision: RevisionInput & Pick<ContentRevision, 'delta' | 'join'>;
  /** The diagram's first revision should it have none yet; null for a new diagram: there is nothing before it. */
  baseline: RevisionInput | null;
}

/**
 * Records a content write's revision, in the write's transaction with the
 * diagram's row locked: a delta on the chain when the write says what changed
 * from the content it replaced, else (or when the chain is full) a snapshot.
 * A write with a join rule joins the newest revision instead when the rule says so.
 */
export async function recordContentRevision(trx: Kysely<Database>, content: RecordedContent): Promise<number> {
  if (content.baseline !== null && content.revision.join) {
    const joined = await joinNewest(trx, content, content.revision.join);
    if (joined !== null) return joined;
  }
  const previousSeq = content.baseline === null ? 0 : await ensureBaseline(trx, content.diagramId, content.baseline);
  const seq = previousSeq + 1;
  const chain = previousSeq === 0 ? null : chainOf(await latestContent(trx, content.diagramId));
  const encoded = await encodeScene(seq, content.elementsJson, content.revision.delta, chain);
  await trx
    .insertInto('revisions')
    .values({ ...revisionValues(content.diagramId, seq, content.docUpdatedAt, content.elementCount, content.revision), doc_updated_at: content.docUpdatedAt, ...encodedColumns(encoded) })
    .execute();
  return seq;
}

/**
 * Asks the write's join rule whether it joins the newest revision (a content
 * revision), and if so rewrites that revision as the rule says: this content,
 * re-encoded from the content revision before it, at the write's time. Null
 * when the write is a revision of its own.
 */
async function joinNewest(trx: Kysely<Database>, content: RecordedContent, join: JoinRule): Promise<number | null> {
  const latest = await trx
    .selectFrom('revisions')
    .select(['seq', 'kind', 'user_id', 'via', 'at', 'detail', 'encoding'])
    .where('diagram_id', '=', content.diagramId)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!latest || latest.encoding === null) return null;
  const seq = Number(latest.seq);
  let before: ChainRow | undefined;
  const previous = async () => {
    before = await trx
      .selectFrom('revisions')
      .select(CHAIN_COLUMNS)
      .where('diagram_id', '=', content.diagramId)
      .where('seq', '<', seq)
      .where('encoding', 'is not', null)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    return before ? elementsAt(trx, content.diagramId, before) : null;
  };
  const newest = {
    kind: latest.kind as RevisionKind,
    userId: latest.user_id,
    via: latest.via === null ? null : (JSON.parse(latest.via) as Via),
    at: latest.at,
    detail: latest.detail === null ? null : (JSON.parse(latest.detail) as RevisionDetail),
  };
  const joined = await join({ newest, at: content.docUpdatedAt, previous });
  if (joined === null || before === undefined) return null;
  const encoded = await encodeScene(seq, content.elementsJson, joined.delta, chainOf(before));
  await trx
    .updateTable('revisions')
    .set({
      at: content.docUpdatedAt,
      doc_updated_at: content.docUpdatedAt,
      element_count: content.elementCount,
      summary: joined.summary,
      detail: JSON.stringify(joined.detail),
      ...encodedColumns(encoded),
    })
    .where('diagram_id', '=', content.diagramId)
    .where('seq', '=', seq)
    .execute();
  return seq;
}

/** The elements current at a content revision: the snapshot its chain starts at and the deltas up to it. */
async function elementsAt(db: Kysely<Database>, diagramId: string, target: { seq: number; base_seq: number | null }): Promise<SceneElement[]> {
  return decodeChain(await chainRows(db, diagramId, target));
}

/** The rows of a content revision's chain, in order: the snapshot it starts at and the deltas up to it. */
function chainRows(db: Kysely<Database>, diagramId: string, target: { seq: number; base_seq: number | null }) {
  return db
    .selectFrom('revisions')
    .select(['encoding', 'payload'])
    .where('diagram_id', '=', diagramId)
    .where('seq', '>=', Number(target.base_seq))
    .where('seq', '<=', Number(target.seq))
    .where('encoding', 'is not', null)
    .orderBy('seq', 'asc')
    .execute();
}

/** Two folders or two workspaces by id (null: none), each with its name while it exists, as a move names them. */
export async function namedPair(trx: Kysely<Database>, table: 'folders' | 'workspaces', from: string | null, to: string | null): Promise<{ from: Named | null; to: Named | null }> {
  const ids = [from, to].filter((id): id is string => id !== null);
  const rows = ids.length === 0 ? [] : await trx.selectFrom(table).select(['id', 'name']).where('id', 'in', ids).execute();
  const named = (id: string | null) => (id === null ? null : { id, name: rows.find((r) => r.id === id)?.name ?? null });
  return { from: named(from), to: named(to) };
}

/** Records an event (a rename, a move), in the change's transaction with the diagram's row locked. */
export async function recordEvent(trx: Kysely<Database>, diagramId: string, at: string, revision: RevisionInput, baseline: RevisionInput): Promise<number> {
  const seq = (await ensureBaseline(trx, diagramId, baseline)) + 1;
  const { element_count } = await trx.selectFrom('diagrams').select(['element_count']).where('id', '=', diagramId).executeTakeFirstOrThrow();
  await trx.insertInto('revisions').values(revisionValues(diagramId, seq, at, Number(element_count), revision)).execute();
  return seq;
}

const RECORD_COLUMNS = [
  'r.diagram_id',
  'r.seq',
  'r.at',
  'r.kind',
  'r.user_id',
  'u.email',
  'r.via',
  'r.element_count',
  'r.summary',
  'r.detail',
  'r.encoding',
  'r.doc_updated_at',
] as const;

type RecordRow = Pick<Selectable<RevisionsTable>, 'diagram_id' | 'seq' | 'at' | 'kind' | 'user_id' | 'via' | 'element_count' | 'summary' | 'detail' | 'encoding' | 'doc_updated_at'> & {
  email: string | null;
};

const toRecord = (row: RecordRow, emails: ReadonlyMap<string, string>): RevisionRecord => ({
  diagramId: row.diagram_id,
  seq: Number(row.seq),
  at: row.at,
  kind: row.kind as RevisionKind,
  author: row.user_id !== null && row.email !== null ? { id: row.user_id, email: row.email } : null,
  contributors: contributorIdsOf(row).flatMap((id) => (emails.has(id) ? [{ id, email: emails.get(id)! }] : [])),
  via: row.via === null ? null : (JSON.parse(row.via) as Via),
  elementCount: Number(row.element_count),
  summary: row.summary,
  detail: row.detail === null ? null : (JSON.parse(row.detail) as RevisionDetail),
  hasScene: row.encoding !== null,
  docUpdatedAt: row.doc_updated_at,
});

const contributorIdsOf = (row: RecordRow): string[] => (row.detail === null ? [] : ((JSON.parse(row.detail) as RevisionDetail).contributors ?? []));

export class SqlHistory implements HistoryStore {
  private readonly scope: SqlScope;

  constructor(scope: SqlScope) {
    this.scope = scope;
  }

  private records(diagramId: string) {
    return this.scope.db.selectFrom('revisions as r').leftJoin('users as u', 'u.id', 'r.user_id').select(RECORD_COLUMNS).where('r.diagram_id', '=', diagramId);
  }

  async list(diagramId: string, page: { beforeSeq: number | null; limit: number }): Promise<RevisionRecord[]> {
    const rows = await this.records(diagramId)
      .$if(page.beforeSeq !== null, (q) => q.where('r.seq', '<', page.beforeSeq!))
      .orderBy('r.seq', 'desc')
      .limit(page.limit)
      .execute();
    return this.toRecords(rows);
  }

  /** The records of `rows`, with their contributors' addresses read in one query. */
  private async toRecords(rows: RecordRow[]): Promise<RevisionRecord[]> {
    const ids = [...new Set(rows.flatMap(contributorIdsOf))];
    const users = ids.length === 0 ? [] : await this.scope.db.selectFrom('users').select(['id', 'email']).where('id', 'in', ids).execute();
    const emails = new Map(users.map((u) => [u.id, u.email]));
    return rows.map((row) => toRecord(row, emails));
  }

  async find(diagramId: string, seq: number): Promise<RevisionRecord | null> {
    const row = await this.records(diagramId).where('r.seq', '=', seq).executeTakeFirst();
    return row ? (await this.toRecords([row]))[0]! : null;
  }

  async previous(diagramId: string, seq: number): Promise<RevisionRecord | null> {
    const row = await this.records(diagramId).where('r.seq', '<', seq).orderBy('r.seq', 'desc').limit(1).executeTakeFirst();
    return row ? (await this.toRecords([row]))[0]! : null;
  }

  async scene(diagramId: string, seq: number): Promise<string | null> {
    const chain = await this.sceneChain(diagramId, seq);
    if (chain === null) return null;
    return chain.deltasJson.length === 0 ? chain.snapshotJson : JSON.stringify(chainElements(chain));
  }

  async sceneChain(diagramId: string, seq: number): Promise<SceneChain | null> {
    const db = this.scope.db;
    const exists = await db.selectFrom('revisions').select(['seq']).where('diagram_id', '=', diagramId).where('seq', '=', seq).executeTakeFirst();
    if (!exists) return null;
    const target = await db
      .selectFrom('revisions')
      .select(['seq', 'base_seq', 'encoding', 'payload'])
      .where('diagram_id', '=', diagramId)
      .where('seq', '<=', seq)
      .where('encoding', 'is not', null)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!target || target.payload === null) return null;
    if (target.encoding === 'snapshot') return { snapshotJson: await snapshotJson(target.payload), deltasJson: [] };
    return chainTexts(await chainRows(db, diagramId, target));
  }

  async diagramsWithOldRevisions({ before, keepLatest, afterId, limit }: { before: string; keepLatest: number; afterId: string | null; limit: number }): Promise<string[]> {
    const rows = await this.scope.db
      .selectFrom('revisions')
      .select(['diagram_id'])
      .$if(afterId !== null, (q) => q.where('diagram_id', '>', afterId!))
      .groupBy('diagram_id')
      .having((eb) => eb.and([eb(eb.fn.min('at'), '<', before), eb(eb.fn.countAll(), '>', keepLatest)]))
      .orderBy('diagram_id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.diagram_id);
  }

  async prune(diagramId: string, keep: (revisions: RetainedRevision[]) => ReadonlySet<number>): Promise<number> {
    return this.scope.atomic(async (trx) => {
      // Writes to this diagram wait until the pruning is done (PostgreSQL; SQLite transactions are already serial).
      if (this.scope.engine === 'postgres') await trx.selectFrom('diagrams').select('id').where('id', '=', diagramId).forUpdate().execute();
      const all = await trx.selectFrom('revisions').select(['seq', 'at', 'encoding']).where('diagram_id', '=', diagramId).orderBy('seq', 'asc').execute();
      const kept = new Set(keep(all.map((r) => ({ seq: Number(r.seq), at: r.at, hasScene: r.encoding !== null }))));
      // The newest revision is the diagram's current content: always kept.
      if (all.length > 0) kept.add(Number(all.at(-1)!.seq));
      const dropped = all.filter((r) => !kept.has(Number(r.seq))).map((r) => Number(r.seq));
      if (dropped.length === 0) return 0;
      // `all` is in seq order, so the first dropped is the earliest.
      await reencodeAfter(trx, diagramId, dropped[0]!, kept);
      for (let i = 0; i < dropped.length; i += 500) {
        await trx.deleteFrom('revisions').where('diagram_id', '=', diagramId).where('seq', 'in', dropped.slice(i, i + 500)).execute();
      }
      return dropped.length;
    });
  }
}

/**
 * Re-encodes the kept content revisions after `firstDropped`, each against
 * the kept one before it, so no delta leans on a revision about to go.
 * Scenes are rebuilt walking the chain from the first snapshot needed.
 */
async function reencodeAfter(trx: Kysely<Database>, diagramId: string, firstDropped: number, keep: ReadonlySet<number>): Promise<void> {
  const startRow = await trx
    .selectFrom('revisions')
    .select(['base_seq'])
    .where('diagram_id', '=', diagramId)
    .where('seq', '<', firstDropped)
    .where('encoding', 'is not', null)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  const from = startRow ? Number(startRow.base_seq) : firstDropped;
  const rows = await trx
    .selectFrom('revisions')
    .select(['seq', 'encoding', 'payload', 'base_seq', 'chain_length', 'chain_bytes', 'snapshot_bytes'])
    .where('diagram_id', '=', diagramId)
    .where('seq', '>=', from)
    .where('encoding', 'is not', null)
    .orderBy('seq', 'asc')
    .execute();
  let lastKept: { elements: SceneElement[]; chain: ChainState } | null = null;
  for await (const [row, scene] of chainScenes(rows)) {
    const seq = Number(row.seq);
    if (!keep.has(seq)) continue;
    if (seq < firstDropped) {
      lastKept = { elements: scene, chain: chainOf(row)! };
      continue;
    }
    const delta = lastKept === null ? null : sceneDelta(lastKept.elements, scene);
    const encoded = await encodeScene(seq, JSON.stringify(scene), delta, lastKept?.chain ?? null);
    await trx.updateTable('revisions').set(encodedColumns(encoded)).where('diagram_id', '=', diagramId).where('seq', '=', seq).execute();
    lastKept = { elements: scene, chain: { seq, ...encoded } };
  }
}

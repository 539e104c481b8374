import { randomInt } from 'node:crypto';
import type { SceneElement, WriteStamp } from '../../domain/edit/types.ts';
import { ApiError } from '../../errors.ts';
import { type SceneChange, sceneChange } from '../../domain/history/change.ts';
import type { ContentRevision, ContentWriteResult, DiagramRecord, RevisionDetail, RevisionKind } from '../../store/store.ts';
import type { ChangedScene } from '../../workers/scene-worker.ts';
import { diagramWithElementsFor } from '../access.ts';
import { BASELINE_REVISION, contributorsOf, joinSaveBurst } from '../history/recording.ts';
import { type AppDeps, type Caller, viaOf } from '../deps.ts';
import { diagramEtag, type WritePrecondition } from './etag.ts';

/**
 * Writers that lose a race without an expectedUpdatedAt recompute on the new
 * revision this many times, waiting a random while (up to 10 ms, doubling each
 * time) between tries so that writers from several instances fall out of step.
 */
const ATTEMPTS = 10;
const BACKOFF_MS = 10;

/** The writes to each diagram in progress in this process, chained: they run one after another, never racing. */
const writing = new Map<string, Promise<unknown>>();

async function oneAtATime<T>(id: string, work: () => Promise<T>): Promise<T> {
  const run = (writing.get(id) ?? Promise.resolve()).then(work, work);
  const tail = run.catch(() => undefined);
  writing.set(id, tail);
  try {
    return await run;
  } finally {
    if (writing.get(id) === tail) writing.delete(id);
  }
}

/** The content to write: elements, or elements a worker already serialised. */
export type NextContent = ({ elements: readonly SceneElement[] } | ChangedScene) & { title?: string };

/** What the write records in the diagram's history besides who made it: its kind, and for a restore what it brought back. */
export interface WriteKind {
  kind: RevisionKind;
  /** Words that open the summary (a restore says which revision). */
  lead?: string;
  detail?: RevisionDetail;
  /** A restore opens again the comments whose element it brings back. */
  reopenComments?: boolean;
  /** A save from the web editor joins the web saves of a moment ago (anyone's) in one revision. */
  joinsSaves?: boolean;
  /** Everyone whose changes the write holds (a live room's write), the actor included. */
  contributorIds?: string[];
  /** The live hub instance writing (a live room's write), announced with it so the rooms that relayed its changes skip reading them back. */
  origin?: string;
  /** The write puts a whole scene in place as the client supplied it: open editors replace theirs with it instead of merging it. */
  replacesScene?: boolean;
}

/** More ids than this changed, and the write's notice says 'all': rooms compare the whole scene instead of reading a long list. */
const ANNOUNCED_IDS_MAX = 1000;

/** The next content, from the current elements (parsed only if asked for) and the revision read. */
type Compute<T> = (elements: () => readonly SceneElement[], current: DiagramRecord) => Promise<T> | T;
/** What was written, the store's answer, and the diagram's ETag after the write. */
type Written<T> = { next: T; result: Extract<ContentWriteResult, { status: 'written' }>; etag: string };

export function writeStamp(deps: AppDeps): WriteStamp {
  return { now: deps.now().getTime(), nonce: () => randomInt(1, 2 ** 31) };
}

/**
 * A content write as one read-compute-write: the new content is computed from
 * the revision read and written only if that revision is still current. With
 * a precondition (the client's expectedUpdatedAt, or the ETags of its
 * If-Match) a changed diagram is 409 stale_read and nothing is written;
 * without one, a lost race is recomputed on the newer revision, so no
 * concurrent write is ever silently overwritten, and contention is never the
 * client's error. Writes to one diagram from this process run one after
 * another, so only writers on other instances can race.
 */
export async function writeContent<T extends NextContent>(deps: AppDeps, actor: Caller, id: string, precondition: WritePrecondition, kind: WriteKind, compute: Compute<T>): Promise<Written<T>> {
  return oneAtATime(id, () => readComputeWrite(deps, actor, id, precondition, kind, compute));
}

/**
 * The revision a write records: what changed (the delta the history stores, and its one-line summary), who,
 * and how they came; a save that joins the saves of a moment ago lists everyone whose changes it holds.
 */
function revisionOf(actor: Caller, write: WriteKind, change: SceneChange, title: { from: string; to: string } | null, elementsJson: string): ContentRevision {
  const summary = [write.lead === undefined ? change.summary : `${write.lead}: ${change.summary}`, ...(title === null ? [] : [`renamed "${title.from}" to "${title.to}"`])].join(', ');
  const by = { userId: actor.user.id, via: viaOf(actor) };
  const contributorIds = write.contributorIds ?? [];
  const detail: RevisionDetail = { ...write.detail, ...(title === null ? {} : { title }), ...(write.joinsSaves ? { contributors: contributorsOf(by.userId, contributorIds) } : {}) };
  return {
    kind: write.kind,
    ...by,
    summary,
    ...(Object.keys(detail).length === 0 ? {} : { detail }),
    delta: change.deltaJson,
    baseline: BASELINE_REVISION,
    ...(write.joinsSaves ? { join: joinSaveBurst({ ...by, contributorIds, elementsJson }) } : {}),
  };
}

async function readComputeWrite<T extends NextContent>(deps: AppDeps, actor: Caller, id: string, precondition: WritePrecondition, kind: WriteKind, compute: Compute<T>): Promise<Written<T>> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * BACKOFF_MS * 2 ** attempt));
    const current = await diagramWithElementsFor(deps, actor, id, 'write');
    refuseIfStale(deps, precondition, current);
    let before: SceneElement[] | null = null;
    const previous = () => (before ??= JSON.parse(current.elementsJson) as SceneElement[]);
    const next = await compute(previous, current);
    const renamed = next.title !== undefined && next.title !== current.title ? { from: current.title, to: next.title } : null;
    const content =
      'elements' in next
        ? { elementsJson: JSON.stringify(next.elements), elementCount: next.elements.length, elementIds: new Set(next.elements.map((e) => e.id)) }
        : { elementsJson: next.elementsJson, elementCount: next.elementCount, elementIds: new Set(next.elementIds) };
    const change = 'history' in next ? next.history : sceneChange(previous(), next.elements);
    const changed = change.upserted.length > ANNOUNCED_IDS_MAX ? ('all' as const) : change.upserted;
    const result = await deps.store.diagrams.writeContent({
      id: current.id,
      ...content,
      expectedDocUpdatedAt: current.docUpdatedAt,
      now: deps.now(),
      ...(next.title === undefined ? {} : { title: next.title }),
      revision: deps.config.history ? revisionOf(actor, kind, change, renamed, content.elementsJson) : null,
      ...(kind.reopenComments ? { reopenComments: true } : {}),
      announce: { changed, removed: change.removed, ...(kind.origin === undefined ? {} : { origin: kind.origin }), ...(kind.replacesScene ? { replaced: true as const } : {}) },
    });
    if (result.status === 'written') {
      // The written revision on the metadata read: should a rename land meanwhile, this ETag matches nothing, which is the safe way to be wrong.
      const written = { ...current, docUpdatedAt: result.docUpdatedAt, updatedAt: result.docUpdatedAt, title: next.title ?? current.title };
      return { next, result, etag: diagramEtag(written, deps.config.publicUrl) };
    }
    if (result.status === 'missing') throw new ApiError('not_found');
    if (precondition !== null) throw staleRead(result.docUpdatedAt);
  }
  // Ten lost races against writers on other instances: the diagram is too busy to write now, which is not the client's doing.
  throw new ApiError('service_busy', 'the diagram kept changing under this write (writers on other servers); retry in a few seconds', { 'retry-after': '2' });
}

/** 409 stale_read when the diagram read is not the one the precondition names. */
function refuseIfStale(deps: AppDeps, precondition: WritePrecondition, current: DiagramRecord): void {
  if (precondition === null) return;
  if ('docUpdatedAt' in precondition) {
    if (precondition.docUpdatedAt !== current.docUpdatedAt) throw staleRead(current.docUpdatedAt);
    return;
  }
  const etag = diagramEtag(current, deps.config.publicUrl);
  if (!precondition.etags.includes(etag)) {
    throw new ApiError('stale_read', `the diagram changed since the ETag in If-Match; its ETag is now ${etag} (docUpdatedAt ${current.docUpdatedAt})`);
  }
}

function staleRead(current: string | null): ApiError {
  return new ApiError('stale_read', `the diagram changed since expectedUpdatedAt; its docUpdatedAt is now ${current}`);
}

import { stampChanges } from '../../domain/edit/stamp-changes.ts';
import type { SceneElement } from '../../domain/edit/types.ts';
import type { SourceWarning } from '../../domain/source/types.ts';
import type { KeptScene } from '../../workers/scene-worker.ts';
import { diagramFor } from '../access.ts';
import type { Caller, ServiceDeps } from '../deps.ts';
import { badRequest } from '../../errors.ts';
import { changedTitle, type ContentInput, contentFromInput, requireOneContent, sceneWork, type SceneContent } from './content.ts';
import { type IfMatch, writePrecondition } from './etag.ts';
import { writeContent, writeStamp } from './write-content.ts';

/** keep: what stays keeps its place and size; fresh: the whole spec laid out again. */
type RegenerateLayout = 'keep' | 'fresh';

export interface Regeneration extends ContentInput {
  title?: string;
  /** The docUpdatedAt the client last saw: a diagram changed since is stale_read and nothing is written. */
  expectedUpdatedAt?: string | undefined;
  /** The ETags the client read (If-Match), instead of expectedUpdatedAt. */
  ifMatch?: IfMatch | undefined;
  /** For a spec or a source; by default keep when the diagram was changed in place since it was last laid out, else fresh. */
  layout?: RegenerateLayout | undefined;
}

export interface Regenerated {
  replaced: number;
  orphanedComments: number;
  title?: string;
  /** The diagram's ETag after the write. */
  etag: string;
  /** From a source: what the drawing leaves out. */
  warnings?: SourceWarning[];
  /** From a spec or a source: how it was laid out, and with keep, the node ids that stayed, were placed and went. */
  layout?: RegenerateLayout;
  kept?: string[];
  placed?: string[];
  removed?: string[];
}

/** Revisions read back to find the newest one that wrote content (events such as renames in between are skipped). */
const LAYOUT_LOOKBACK = 50;

/**
 * How a regenerate lays out when the request does not say: fresh when the
 * newest content revision laid the diagram out (its creation, or a regenerate
 * that did not keep), keep when it was changed in place since (an edit, a
 * patch, the editor, a restore, a regenerate that kept).
 */
async function defaultLayout(deps: ServiceDeps, id: string): Promise<RegenerateLayout> {
  const records = await deps.store.history.list(id, { beforeSeq: null, limit: LAYOUT_LOOKBACK });
  const newest = records.find((r) => r.hasScene);
  if (newest === undefined) return 'keep';
  return newest.kind === 'create' || (newest.kind === 'regenerate' && newest.detail?.layout !== 'keep') ? 'fresh' : 'keep';
}

/**
 * Replaces a diagram's scene in place (a caller who may not change it is refused before anything is laid out).
 * From a spec or a source, laid out `fresh` (ids are deterministic, a source's node ids are its own, so comments
 * on reused ids stay anchored; elements that come out the same keep their versions, the rest continue the stored
 * ones, stampChanges) or `keep`: drawn over the stored scene in a scene worker, what stays keeping its place
 * (regenerateKeeping), falling back to fresh where that cannot be done (a new container). A scene is stored
 * exactly as supplied, versions and all: the write says it replaces the scene, and open editors replace theirs
 * with it instead of merging it.
 */
export async function regenerateDiagram(deps: ServiceDeps, caller: Caller, id: string, input: Regeneration): Promise<Regenerated> {
  requireOneContent(input);
  const asSupplied = input.scene !== undefined;
  if (asSupplied && input.layout !== undefined) throw badRequest('"layout" applies to a spec or a source: a scene is stored exactly as supplied');
  const precondition = writePrecondition(input.expectedUpdatedAt, input.ifMatch);
  const title = changedTitle(input.title);
  // Who may change it is settled before any layout (the write checks again, on the revision it reads).
  await diagramFor(deps, caller, id, 'write');
  const stamp = writeStamp(deps);
  const titled = title === undefined ? {} : { title };
  if (asSupplied || (input.layout ?? (await defaultLayout(deps, id))) === 'fresh') {
    // Validate and lay out once; only the version continuation depends on the revision read.
    const content = await contentFromInput(deps, input, caller);
    const elements = JSON.parse(content.elementsJson) as SceneElement[];
    const kind = { kind: 'regenerate' as const, ...(asSupplied ? { replacesScene: true } : {}) };
    const { result, etag } = await writeContent(deps, caller, id, precondition, kind, (previous) => ({ elements: asSupplied ? elements : stampChanges(previous(), elements, stamp), ...titled }));
    return { replaced: elements.length, orphanedComments: result.orphanedComments, ...titled, etag, ...warningsOf(content), ...(asSupplied ? {} : { layout: 'fresh' as const }) };
  }
  // Keep: the arrangement the write reads is the one kept; a change that cannot be made in place lays out afresh.
  let fresh: SceneContent | null = null;
  const { next, result, etag } = await writeContent(deps, caller, id, precondition, { kind: 'regenerate', detail: { layout: 'keep' } }, async (previous, current) => {
    const kept = await sceneWork<KeptScene>(deps, { task: 'keep', elementsJson: current.elementsJson, ...(input.spec !== undefined ? { spec: input.spec } : { source: input.source }), now: stamp.now }, caller);
    if (!('fresh' in kept)) return { ...kept, ...titled };
    fresh ??= await contentFromInput(deps, input, caller);
    return { elements: stampChanges(previous(), JSON.parse(fresh.elementsJson) as SceneElement[], stamp), fresh, ...titled };
  });
  if ('fresh' in next) {
    return { replaced: next.elements.length, orphanedComments: result.orphanedComments, ...titled, etag, ...warningsOf(next.fresh), layout: 'fresh' };
  }
  const { kept, placed, removed, warnings } = next;
  return { replaced: next.elementCount, orphanedComments: result.orphanedComments, ...titled, etag, ...(warnings === undefined ? {} : { warnings }), layout: 'keep', kept, placed, removed };
}

const warningsOf = (content: SceneContent) => (content.warnings === undefined ? {} : { warnings: content.warnings });

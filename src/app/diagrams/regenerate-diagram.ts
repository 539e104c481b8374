import { stampChanges } from '../../domain/edit/stamp-changes.ts';
import type { SceneElement } from '../../domain/edit/types.ts';
import type { SourceWarning } from '../../domain/source/types.ts';
import { diagramFor } from '../access.ts';
import type { Caller, ServiceDeps } from '../deps.ts';
import { changedTitle, type ContentInput, contentFromInput, requireOneContent } from './content.ts';
import { type IfMatch, writePrecondition } from './etag.ts';
import { writeContent, writeStamp } from './write-content.ts';

export interface Regeneration extends ContentInput {
  title?: string;
  /** The docUpdatedAt the client last saw: a diagram changed since is stale_read and nothing is written. */
  expectedUpdatedAt?: string | undefined;
  /** The ETags the client read (If-Match), instead of expectedUpdatedAt. */
  ifMatch?: IfMatch | undefined;
}

export interface Regenerated {
  replaced: number;
  orphanedComments: number;
  title?: string;
  /** The diagram's ETag after the write. */
  etag: string;
  /** From a source: what the drawing leaves out. */
  warnings?: SourceWarning[];
}

/**
 * Replaces a diagram's whole scene in place (a caller who may not change it is refused before anything is laid out), from a spec or a source (laid
 * out again: ids are deterministic, a source's node ids are its own, so comments on reused ids stay anchored) or a scene.
 * A spec's elements that changed or are new continue the stored versions
 * (stampChanges), so open editors take them by their merge; those that come
 * out the same are kept as they were. A scene is stored exactly as supplied,
 * versions and all: the write says it replaces the scene, and open editors
 * replace theirs with it instead of merging it.
 */
export async function regenerateDiagram(deps: ServiceDeps, caller: Caller, id: string, input: Regeneration): Promise<Regenerated> {
  requireOneContent(input);
  const precondition = writePrecondition(input.expectedUpdatedAt, input.ifMatch);
  const title = changedTitle(input.title);
  // Who may change it is settled before any layout (the write checks again, on the revision it reads).
  await diagramFor(deps, caller, id, 'write');
  // Validate and lay out once; only the version continuation depends on the revision read.
  const content = await contentFromInput(deps, input, caller);
  const elements = JSON.parse(content.elementsJson) as SceneElement[];
  const stamp = writeStamp(deps);
  const asSupplied = input.scene !== undefined;
  const kind = { kind: 'regenerate' as const, ...(asSupplied ? { replacesScene: true } : {}) };
  const { result, etag } = await writeContent(deps, caller, id, precondition, kind, (previous) => ({
    elements: asSupplied ? elements : stampChanges(previous(), elements, stamp),
    ...(title === undefined ? {} : { title }),
  }));
  return { replaced: elements.length, orphanedComments: result.orphanedComments, ...(title === undefined ? {} : { title }), etag, ...(content.warnings === undefined ? {} : { warnings: content.warnings }) };
}

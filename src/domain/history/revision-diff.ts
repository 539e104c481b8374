/**
 * The history's answer to "what changed between these two revisions": per
 * element (added, removed, changed and in which aspects), one line, and the
 * delta that turns the first scene into the second. Built from the two
 * scenes as the history keeps them and answered as JSON text, so the whole
 * of it (parsing 5,000 elements twice, applying deltas, comparing,
 * serialising) can run in a scene worker. Pure.
 */
import { chainElements, type SceneChain, sceneDelta } from './delta.ts';
import { describeDelta } from './describe.ts';

/** The two revisions' ids as clients see them, and the line to say when the revision's own says it best (null: the one worked out). */
export interface DiffSides {
  from: string | null;
  to: string;
  summary: string | null;
}

export function revisionDiffJson(from: SceneChain, to: SceneChain, sides: DiffSides): string {
  const before = chainElements(from);
  const delta = sceneDelta(before, chainElements(to));
  const changes = describeDelta(before, delta);
  return JSON.stringify({
    from: sides.from,
    to: sides.to,
    added: changes.added,
    removed: delta.remove,
    changed: changes.changed,
    summary: sides.summary ?? changes.summary,
    elements: delta.upsert,
    ...(delta.order === undefined ? {} : { order: delta.order }),
  });
}

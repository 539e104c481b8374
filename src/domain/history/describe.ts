/**
 * What a SceneDelta did, told two ways: per element (added, removed, changed
 * and in which aspects) for a client to highlight, and as one line a person
 * reads in a revision list ("moved db, relabelled api as gateway, deleted
 * cache and its arrows").
 *
 * Cheap on a large scene: one pass over `before` indexes it; everything else
 * looks only at what the delta names. Pure.
 */
import type { SceneElement } from '../edit/types.ts';
import { aspectsOf, type ChangeAspect, changedFields } from './aspects.ts';
import type { SceneDelta } from './delta.ts';
import { SceneSides } from './scene-sides.ts';
import { summarize } from './summary.ts';

export { changeAspects } from './aspects.ts';

export interface SceneChanges {
  /** Ids present after and absent before, in after order. */
  added: string[];
  /** Ids present before and absent after, in before order. */
  removed: string[];
  /** Ids present on both sides whose data differs, in after order; aspects [] when only bookkeeping (version, nonce…) changed. */
  changed: { id: string; aspects: ChangeAspect[] }[];
  /** One line a person reads; "no changes to the elements" when there are none. */
  summary: string;
}

export function describeDelta(before: readonly SceneElement[], delta: SceneDelta): SceneChanges {
  const sides = new SceneSides(before, delta);
  const added: string[] = [];
  const fieldsById = new Map<string, string[]>();
  for (const id of sides.upsertIds()) {
    if (!sides.presentAfter(id)) continue;
    const previous = sides.before(id);
    if (previous === undefined) {
      added.push(id);
      continue;
    }
    // An upsert equal to what was there (say, the same data with its keys in another order) changes nothing.
    const fields = changedFields(previous, sides.after(id)!);
    if (fields.length > 0) fieldsById.set(id, fields);
  }
  const removed = sides.removedIds();
  const changed = [...fieldsById].map(([id, fields]) => ({ id, aspects: aspectsOf(fields) }));
  return { added, removed, changed, summary: summarize(sides, { added, removed, changedFields: fieldsById }, delta.order) };
}

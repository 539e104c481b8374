import { type SceneElement, touch, type WriteStamp } from '../edit/types.ts';
import { sameJson } from './delta.ts';

/**
 * A past scene written over the current one: an element that differs from
 * its current self continues the current version (so an open editor, which
 * keeps the higher version of an element, takes the restored one); elements
 * unchanged or absent now are written exactly as they were.
 */
export function restoredOver(current: readonly SceneElement[], restored: readonly SceneElement[], stamp: WriteStamp): SceneElement[] {
  const now = new Map(current.map((e) => [e.id, e]));
  return restored.map((element) => {
    const present = now.get(element.id);
    if (present === undefined || sameJson(present, element)) return element;
    const version = Math.max(Number(element.version) || 0, Number(present.version) || 0);
    return touch({ ...element, version }, stamp);
  });
}

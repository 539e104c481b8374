import { stampChanges } from '../edit/stamp-changes.ts';
import type { SceneElement, WriteStamp } from '../edit/types.ts';

/**
 * A past scene written over the current one: an element that differs from
 * its current self, or is absent now, continues the current version plus one
 * (so an open editor, which keeps the higher version of an element, takes the
 * restored one); elements unchanged are kept as they are now.
 */
export function restoredOver(current: readonly SceneElement[], restored: readonly SceneElement[], stamp: WriteStamp): SceneElement[] {
  return stampChanges(current, restored, stamp);
}

/**
 * What a content write changed, as its revision and the live rooms' notice
 * need it. The delta is kept as JSON text: a scene worker works it out and
 * serialises it where both scenes are at hand, and text crosses back to the
 * server for almost nothing, where the delta's objects (every re-routed
 * arrow of a hub) would be rebuilt one by one on the event loop.
 */
import type { SceneElement } from '../edit/types.ts';
import { sceneDelta } from './delta.ts';
import { describeDelta } from './describe.ts';

export interface SceneChange {
  /** The SceneDelta from the content before to the content after, as JSON. */
  deltaJson: string;
  /** Ids of the elements the delta adds or changes. */
  upserted: string[];
  /** Ids present before and absent after. */
  removed: string[];
  /** One line a person reads: what changed. */
  summary: string;
}

export function sceneChange(before: readonly SceneElement[], after: readonly SceneElement[]): SceneChange {
  const delta = sceneDelta(before, after);
  return { deltaJson: JSON.stringify(delta), upserted: delta.upsert.map((e) => e.id), removed: delta.remove, summary: describeDelta(before, delta).summary };
}

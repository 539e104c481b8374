import { sameJson } from '../history/delta.ts';
import { type SceneElement, touch, type WriteStamp } from './types.ts';

/** An element without the editor's clock (version, versionNonce, updated): what it shows. */
function withoutClock(element: SceneElement): Record<string, unknown> {
  const { version: _version, versionNonce: _nonce, updated: _updated, ...content } = element;
  return content;
}

/**
 * A whole scene about to replace `stored`, stamped the way the editor
 * reconciles: an element that shows the same as its stored self keeps the
 * stored one (its version too); an element changed or added continues the
 * higher of its own and the stored version, plus one, with a new nonce and
 * this write's time. So every element a write through the API changes wins
 * over the copies open editors hold, and nothing it leaves alone disturbs them.
 */
export function stampChanges(stored: readonly SceneElement[], next: readonly SceneElement[], stamp: WriteStamp): SceneElement[] {
  const before = new Map(stored.map((e) => [e.id, e]));
  return next.map((element) => {
    const present = before.get(element.id);
    if (present !== undefined && sameJson(withoutClock(present), withoutClock(element))) return present;
    const version = Math.max(Number(element.version) || 0, Number(present?.version) || 0);
    return touch({ ...element, version }, stamp);
  });
}

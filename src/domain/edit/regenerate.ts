import { type SceneElement, touch, type WriteStamp } from './types.ts';

/**
 * Generated elements replacing a scene: those reusing an id continue its
 * version (so the editor takes the new one over what it holds), and every
 * element is stamped with this write.
 */
export function continueVersions(previous: readonly SceneElement[], next: readonly SceneElement[], stamp: WriteStamp): SceneElement[] {
  const versions = new Map(previous.map((e) => [e.id, typeof e.version === 'number' ? e.version : 0]));
  return next.map((element) => {
    const before = versions.get(element.id);
    return before === undefined ? { ...element, updated: stamp.now } : touch({ ...element, version: Math.max(before, 0) }, stamp);
  });
}

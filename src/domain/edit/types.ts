/**
 * What every in-place content write (edit, patch) gets from the caller, so the
 * pure functions stay pure: the time to stamp and a source of nonces.
 */
export interface WriteStamp {
  /** `updated` for every element the write touches (ms since epoch). */
  now: number;
  /** A fresh random 31-bit integer, for `versionNonce`. */
  nonce: () => number;
}

export type SceneElement = Record<string, unknown> & { id: string; type: string };

/** Marks an element as changed by this write so the editor reconciles it: version + 1, new nonce, updated. */
export function touch<T extends SceneElement>(element: T, stamp: WriteStamp): T {
  return { ...element, version: (typeof element.version === 'number' ? element.version : 0) + 1, versionNonce: stamp.nonce(), updated: stamp.now };
}

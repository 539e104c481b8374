/** What one scene job may take: past either, the job is refused as too large and its worker replaced. */

/** A scene job that takes longer than this is abandoned (its worker replaced) and refused as too large. */
export const SCENE_TIMEOUT_MS = 30_000;
/** The heap a scene worker may hold: a job needing more is refused as too large, and the server's memory stays bounded. */
export const SCENE_HEAP_MB = 256;

import type { AppDeps } from '../deps.ts';
import { retention } from './recording.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 100;

/**
 * Drops the revisions the retention policy no longer keeps, a diagram at a
 * time (each in its own transaction, so writes to other diagrams never wait
 * on it): every revision of the last `keepAllDays`, then the last content
 * revision of each older day, always the newest `keepLatest`. Run hourly by
 * the server; several servers doing it at once is harmless. Returns how many
 * revisions were dropped.
 */
export async function pruneHistory(deps: AppDeps): Promise<number> {
  const policy = deps.config.historyRetention;
  const now = deps.now();
  const before = new Date(now.getTime() - policy.keepAllDays * DAY_MS).toISOString();
  let dropped = 0;
  let afterId: string | null = null;
  for (;;) {
    const ids = await deps.store.history.diagramsWithOldRevisions({ before, keepLatest: policy.keepLatest, afterId, limit: BATCH });
    for (const id of ids) dropped += await deps.store.history.prune(id, retention(policy, now));
    if (ids.length < BATCH) return dropped;
    afterId = ids[ids.length - 1]!;
  }
}

/**
 * Which revisions a diagram's history keeps: every revision of the last days,
 * then the last content revision of each older day, and always the newest
 * few. An event kept (a rename, a move) keeps the content revision its scene
 * comes from, so what it shows never changes.
 */

/** How long history is kept: everything recent, then one revision per day, and always the latest few. */
export interface RetentionPolicy {
  /** Every revision younger than this many days is kept. */
  keepAllDays: number;
  /** Older revisions: the last content revision of each UTC day younger than this many days (Infinity: every day). */
  keepDailyDays: number;
  /** The newest this many revisions are always kept (at least 1). */
  keepLatest: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { keepAllDays: 30, keepDailyDays: Infinity, keepLatest: 50 };

export interface RetainedRevision {
  seq: number;
  at: string;
  /** Whether it wrote content (false for events). */
  hasScene: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The seqs to keep of `revisions` (any order) under `policy` at `now`; the newest is always among them. */
export function revisionsToKeep(revisions: readonly RetainedRevision[], policy: RetentionPolicy, now: Date): Set<number> {
  const ascending = [...revisions].sort((a, b) => a.seq - b.seq);
  const keep = new Set<number>();
  const latest = Math.max(1, policy.keepLatest);
  for (const revision of ascending.slice(-latest)) keep.add(revision.seq);
  const allSince = now.getTime() - policy.keepAllDays * DAY_MS;
  const dailySince = now.getTime() - policy.keepDailyDays * DAY_MS;
  const lastOfDay = new Map<string, number>();
  for (const revision of ascending) {
    const at = Date.parse(revision.at);
    if (at >= allSince) keep.add(revision.seq);
    else if (revision.hasScene && at >= dailySince) lastOfDay.set(revision.at.slice(0, 10), revision.seq);
  }
  for (const seq of lastOfDay.values()) keep.add(seq);
  // A kept event shows the content revision before it: keep that one too.
  let lastContent: number | null = null;
  for (const revision of ascending) {
    if (revision.hasScene) lastContent = revision.seq;
    else if (keep.has(revision.seq) && lastContent !== null) keep.add(lastContent);
  }
  return keep;
}

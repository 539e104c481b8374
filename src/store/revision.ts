/**
 * The live-document revision clock: the write's time, or one millisecond past
 * the previous revision when the clock has not moved on (two writes in one
 * millisecond, or a clock step back), so every write gets a distinct, increasing
 * `docUpdatedAt`.
 */
export function nextRevision(previous: string | null, now: Date): string {
  const floor = previous === null ? -Infinity : Date.parse(previous) + 1;
  return new Date(Math.max(now.getTime(), floor)).toISOString();
}

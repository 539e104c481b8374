import type { RevisionDiff, RevisionItem, Via } from '../api/history-schemas.ts';

/**
 * How a write came, in a few words: `web editor`, `token ci-deploy`,
 * `oauth Claude`, `mcp patch_elements (agent-bot)` (the MCP tool, then the
 * token or application it acted with); `-` for a write from before history
 * was kept.
 */
export function describeVia(via: Via | null): string {
  if (via === null) return '-';
  if (via.kind === 'web') return via.name;
  const behalf = via.kind === 'mcp' ? (via.token?.name ?? via.client?.name) : undefined;
  return `${via.kind} ${via.name}${behalf ? ` (${behalf})` : ''}`;
}

/** A timestamp as the history table shows it: date and time to the second, UTC. */
const shortTime = (iso: string) => iso.replace('T', ' ').slice(0, 19);

/** The history table's columns and one row per revision. */
export const HISTORY_HEADERS = ['REV', 'WHEN', 'WHO', 'VIA', 'KIND', 'SUMMARY'];
export function historyRow(item: RevisionItem): string[] {
  return [item.rev, shortTime(item.at), item.author?.email ?? '-', describeVia(item.via), item.kind, item.summary];
}

/** What a diff says to a person: the summary, then each non-empty list of ids (changed ones with what changed). */
export function diffLines(diff: Pick<RevisionDiff, 'from' | 'to' | 'summary' | 'added' | 'removed' | 'changed'>): string[] {
  const lines = [`${diff.from ?? '(nothing)'} → ${diff.to}: ${diff.summary}`];
  if (diff.added.length > 0) lines.push(`added:    ${diff.added.join(', ')}`);
  if (diff.removed.length > 0) lines.push(`removed:  ${diff.removed.join(', ')}`);
  // An element only restamped (a write touched it, nothing of it changed) is said so, not shown with an empty list.
  if (diff.changed.length > 0) lines.push(`changed:  ${diff.changed.map((c) => `${c.id} (${c.aspects.length > 0 ? c.aspects.join(', ') : 'restamped only'})`).join(', ')}`);
  return lines;
}

/**
 * The history's rules: how each change is worded and recorded. The store persists revisions in the
 * transaction of the change they record; what they say, and when a save joins the one before it instead of
 * adding a revision, is decided here and handed to it.
 */
import type { SceneElement } from '../../domain/edit/types.ts';
import { sceneDelta } from '../../domain/history/delta.ts';
import { describeDelta } from '../../domain/history/describe.ts';
import { type RetainedRevision, type RetentionPolicy, revisionsToKeep } from '../../domain/history/retention.ts';
import type { Attribution, ChangeRecording, JoinRule, MetaChange, Named, RevisionInput } from '../../store/history.ts';

/** Saves from the web editor this close together are one revision... */
const SAVE_PAUSE_MS = 2 * 60 * 1000;
/** ...as long as the burst they make is no longer than this. */
const SAVE_BURST_MS = 10 * 60 * 1000;

/** The first revision of a diagram older than its history: what it held when its history began. */
export const BASELINE_REVISION: RevisionInput = { kind: 'baseline', userId: null, via: null, summary: 'the diagram as it was when its history began' };

/** A new diagram's first revision. */
export function createdRevision(by: Attribution, elementCount: number): RevisionInput {
  return { kind: 'create', ...by, summary: `created with ${elementCount === 1 ? '1 element' : `${elementCount} elements`}` };
}

const quoted = (named: Named | null, missing: string) => `"${named?.name ?? missing}"`;

/** How a move between places reads: into, out of, or from one to the other. */
function moveSummary(move: { from: Named | null; to: Named | null }, place: string, missing: string): string {
  if (move.to === null) return `moved out of ${place}${quoted(move.from, missing)}`;
  if (move.from === null) return `moved into ${place}${quoted(move.to, missing)}`;
  return `moved from ${place}${quoted(move.from, missing)} to ${quoted(move.to, missing)}`;
}

const idOf = (named: Named | null) => named?.id ?? null;

/** A rename, a move between folders and a move between workspaces, each an event by `by`. */
export function changeRecording(by: Attribution): ChangeRecording {
  return {
    baseline: BASELINE_REVISION,
    events(change: MetaChange): RevisionInput[] {
      const events: RevisionInput[] = [];
      const { title, folder, workspace } = change;
      if (title) events.push({ kind: 'rename', ...by, summary: `renamed "${title.from}" to "${title.to}"`, detail: { title } });
      if (folder) {
        const ids = { from: idOf(folder.from), to: idOf(folder.to) };
        events.push({ kind: 'move', ...by, summary: moveSummary(folder, '', 'a deleted folder'), detail: { folder: ids } });
      }
      if (workspace) {
        const ids = { from: idOf(workspace.from), to: idOf(workspace.to) };
        events.push({ kind: 'move', ...by, summary: moveSummary(workspace, 'workspace ', 'a deleted workspace'), detail: { workspace: ids } });
      }
      return events;
    },
  };
}

/** Everyone whose changes a save holds, its author first, each once. */
export function contributorsOf(author: string | null, others: readonly string[] = [], before: readonly string[] = []): string[] {
  return [...new Set([...before, ...(author === null ? [] : [author]), ...others])];
}

/**
 * A web editor's save joins the diagram's newest revision when that is a web save (anyone's: people editing
 * live together make one revision) from the same place (`via`), less than SAVE_PAUSE_MS before, in a burst
 * begun less than SAVE_BURST_MS ago: the revision then holds this content, says what the whole burst changed
 * (from the content revision before it) and lists everyone in it.
 */
export function joinSaveBurst(save: Attribution & { contributorIds: readonly string[]; elementsJson: string }): JoinRule {
  return async ({ newest, at, previous }) => {
    if (newest.kind !== 'save' || JSON.stringify(newest.via) !== JSON.stringify(save.via)) return null;
    const detail = newest.detail ?? {};
    const since = detail.saves?.since ?? newest.at;
    const time = Date.parse(at);
    if (time - Date.parse(newest.at) >= SAVE_PAUSE_MS || time - Date.parse(since) >= SAVE_BURST_MS) return null;
    const before = await previous();
    if (before === null) return null;
    const delta = sceneDelta(before, JSON.parse(save.elementsJson) as SceneElement[]);
    const contributors = contributorsOf(save.userId, save.contributorIds, detail.contributors ?? (newest.userId === null ? [] : [newest.userId]));
    return { summary: describeDelta(before, delta).summary, detail: { ...detail, saves: { count: (detail.saves?.count ?? 1) + 1, since }, contributors }, delta };
  };
}

/** Which revisions a diagram keeps under the retention policy at `now` (docs: every revision of the last days, then one a day, always the newest few). */
export function retention(policy: RetentionPolicy, now: Date): (revisions: RetainedRevision[]) => ReadonlySet<number> {
  return (revisions) => revisionsToKeep(revisions, policy, now);
}

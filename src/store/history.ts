import type { SceneElement } from '../domain/edit/types.ts';
import type { SceneChain, SceneDelta } from '../domain/history/delta.ts';
import type { RetainedRevision } from '../domain/history/retention.ts';


/** What made a revision: a content write, a revision brought back, or an event that changed no element. */
export type RevisionKind = 'create' | 'edit' | 'regenerate' | 'patch' | 'save' | 'restore' | 'rename' | 'move' | 'baseline';

/**
 * How a write reached the service: an API token, an OAuth app's token, the
 * web app, or one of Drawbridge's MCP servers (the tool that wrote, with the
 * token or app it wrote with).
 */
export type Via =
  | { kind: 'token'; name: string; token: { id: string; name: string } }
  | { kind: 'oauth'; name: string; client: { id: string; name: string } }
  | { kind: 'mcp'; name: string; tool: string; token?: { id: string; name: string }; client?: { id: string; name: string } }
  | { kind: 'web'; name: string };

/** Facts about a revision beyond its scene, by kind. */
export interface RevisionDetail {
  /** restore: the revision brought back. */
  restoredFrom?: number;
  /** A save that joined the ones before it: how many, and when the first was. */
  saves?: { count: number; since: string };
  /** A web save: the ids of everyone whose changes it holds (several people editing live make one revision). */
  contributors?: string[];
  /** rename (or a content write that renamed): the titles before and after. */
  title?: { from: string; to: string };
  /** move: the folders before and after (null: no folder). */
  folder?: { from: string | null; to: string | null };
  /** move between workspaces: the workspaces before and after (null: none). */
  workspace?: { from: string | null; to: string | null };
  /** regenerate: it kept the arrangement it was drawn over (layout "keep"), rather than laying everything out afresh. */
  layout?: 'keep';
}

/** Who made a change, and how. */
export interface Attribution {
  userId: string | null;
  via: Via | null;
}

/** Who recorded a revision, how, and what it was; the store adds its number, time and scene. */
export interface RevisionInput {
  kind: RevisionKind;
  userId: string | null;
  via: Via | null;
  /** One line a person reads: what changed. */
  summary: string;
  detail?: RevisionDetail;
}

/** What a content write's transaction reads of the diagram's newest revision, for a save that may join it. */
interface NewestRevision {
  kind: RevisionKind;
  userId: string | null;
  via: Via | null;
  at: string;
  detail: RevisionDetail | null;
}

/** What the newest revision becomes when a write joins it: its summary, detail and change from the content revision before it. */
interface JoinedRevision {
  summary: string;
  detail: RevisionDetail;
  delta: SceneDelta;
}

/**
 * Whether a content write joins the diagram's newest revision instead of adding one, as the history's rules
 * decide (app/history): asked, in the write's transaction, with that revision (always a content revision),
 * the time the write takes (its docUpdatedAt) and the elements of the content revision before it (read only
 * when asked; null when there is none, and nothing to join). Null: the write is a revision of its own.
 */
export type JoinRule = (facts: { newest: NewestRevision; at: string; previous: () => Promise<SceneElement[] | null> }) => Promise<JoinedRevision | null>;

/**
 * A content write's revision: the input, and the change from the content it
 * replaced (null: store the whole scene), or its JSON text (a scene worker
 * serialises it, off the event loop).
 */
export interface ContentRevision extends RevisionInput {
  delta: SceneDelta | string | null;
  /** Recorded first when the diagram has no revision yet (it predates history), holding the content the write replaces. */
  baseline: RevisionInput;
  /** When given, the write may join the newest revision instead (a save from the web editor joins the others of a burst of work). */
  join?: JoinRule;
}

/** A folder or a workspace as a change names it: its id, and its name while it exists. */
export interface Named {
  id: string;
  name: string | null;
}

/** What a change to a diagram's title, folder or workspace changed, as read in its transaction: each part only if it changed. */
export interface MetaChange {
  title?: { from: string; to: string };
  folder?: { from: Named | null; to: Named | null };
  workspace?: { from: Named | null; to: Named | null };
}

/**
 * How such a change is recorded in the diagram's history, in the words of the history's rules (app/history):
 * the revisions it makes (none for a change that changed nothing), and the first revision of a diagram that
 * has none yet (it predates history), holding what it held.
 */
export interface ChangeRecording {
  baseline: RevisionInput;
  events(change: MetaChange): RevisionInput[];
}

export interface RevisionRecord {
  diagramId: string;
  /** Increasing per diagram, from 1; never reused. */
  seq: number;
  at: string;
  kind: RevisionKind;
  author: { id: string; email: string } | null;
  /** A web save: everyone whose changes it holds, the author first (accounts deleted since are left out); empty for other kinds. */
  contributors: { id: string; email: string }[];
  via: Via | null;
  /** The number of elements current after this revision. */
  elementCount: number;
  summary: string;
  detail: RevisionDetail | null;
  /** Whether this revision wrote content (false for events). */
  hasScene: boolean;
  /** Content revisions: the docUpdatedAt the write gave the diagram. */
  docUpdatedAt: string | null;
}

/**
 * Every diagram's revisions. Content revisions are recorded by the diagram
 * store's content writes and events by its metadata updates, in the same
 * transaction as the change they record; this aggregate reads and prunes.
 * Scenes are kept as compressed snapshots with element-level deltas between
 * them: reading any revision reads one snapshot and a bounded chain of deltas.
 */
export interface HistoryStore {
  /** A diagram's revisions, newest first, strictly before `beforeSeq` when given. */
  list(diagramId: string, page: { beforeSeq: number | null; limit: number }): Promise<RevisionRecord[]>;
  find(diagramId: string, seq: number): Promise<RevisionRecord | null>;
  /** The revision before `seq` (null when `seq` is the first one kept). */
  previous(diagramId: string, seq: number): Promise<RevisionRecord | null>;
  /** The elements (JSON text) current at revision `seq`; null when there is no such revision. */
  scene(diagramId: string, seq: number): Promise<string | null>;
  /** The same scene as kept, unparsed: its snapshot's JSON and the deltas' after it (a large diff parses them in a scene worker). */
  sceneChain(diagramId: string, seq: number): Promise<SceneChain | null>;
  /** Diagrams with revisions older than `before` and more than `keepLatest` in all: candidates for pruning, by id, after `afterId` when given. */
  diagramsWithOldRevisions(query: { before: string; keepLatest: number; afterId: string | null; limit: number }): Promise<string[]>;
  /**
   * Drops the revisions `keep` leaves out (it is given every revision, oldest first; the newest is kept
   * whatever it says), re-encoding the revisions after a dropped one; how many were dropped.
   */
  prune(diagramId: string, keep: (revisions: RetainedRevision[]) => ReadonlySet<number>): Promise<number>;
}

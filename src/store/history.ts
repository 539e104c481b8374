import type { SceneChain, SceneDelta } from '../domain/history/delta.ts';
import type { RetentionPolicy } from '../domain/history/retention.ts';


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

/**
 * A content write's revision: the input, and the change from the content it
 * replaced (null: store the whole scene), or its JSON text (a scene worker
 * serialises it, off the event loop).
 */
export interface ContentRevision extends RevisionInput {
  delta: SceneDelta | string | null;
  /**
   * A save from the web editor, which saves as people work: it joins the
   * newest revision instead of adding one when that is a web save from the
   * same burst of work, whoever made it (see SAVE_PAUSE_MS and SAVE_BURST_MS),
   * and the revision lists everyone whose changes it holds.
   */
  joinsSaves?: boolean;
  /** Everyone whose changes the write holds, the author included (a live room writes several people's changes at once). */
  contributorIds?: string[];
}

/** Saves from the web editor this close together are one revision... */
export const SAVE_PAUSE_MS = 2 * 60 * 1000;
/** ...as long as the burst they make is no longer than this. */
export const SAVE_BURST_MS = 10 * 60 * 1000;

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
  /** Drops what the policy does not keep (never the newest revision), re-encoding the revisions after a dropped one; how many were dropped. */
  prune(diagramId: string, policy: RetentionPolicy, now: Date): Promise<number>;
}

import type { AccessFacts } from '../auth/policy.ts';
import type { ChangeRecording, ContentRevision, RevisionInput } from './history.ts';
import type { ContentChange } from './live-bus.ts';

export interface DiagramMeta {
  id: string;
  ownerId: string;
  title: string;
  folderId: string | null;
  workspaceId: string | null;
  starred: boolean;
  elementCount: number;
  createdAt: string;
  updatedAt: string;
  docUpdatedAt: string | null;
  deletedAt: string | null;
}

export interface DiagramRecord extends DiagramMeta {
  /** The scene's elements array as stored JSON text. */
  elementsJson: string;
}

/** A whole-scene content write (edit, regenerate, patch), applied in one transaction. */
export interface ContentWrite {
  id: string;
  elementsJson: string;
  elementCount: number;
  /** The ids in the new scene: open comments on any other element are resolved as `element_removed`. */
  elementIds: ReadonlySet<string>;
  /** The revision the write was computed from; null writes whatever the current one is. */
  expectedDocUpdatedAt: string | null;
  now: Date;
  /** Renames in the same transaction. */
  title?: string;
  /** The revision this write records, in the same transaction; null records none (history is off). */
  revision: ContentRevision | null;
  /** A restore: comments resolved because their element went away are opened again when it is back. */
  reopenComments?: boolean;
  /**
   * What the write changed, announced on the live bus in the write's own
   * transaction so open editors take it; `origin`: the live hub instance
   * that wrote it (absent: a write from outside a live room); `replaced`: the
   * write put a whole scene in place as supplied. Without it,
   * rooms take every element that differs from what they hold.
   */
  announce?: ContentChange & { origin?: string; replaced?: true };
}

export type ContentWriteResult =
  | { status: 'written'; docUpdatedAt: string; orphanedComments: number; reopenedComments: number; revision: number | null }
  | { status: 'stale'; docUpdatedAt: string | null }
  | { status: 'missing' };

export interface ListPosition {
  createdAt: string;
  id: string;
}

/** Which owned diagrams to list: one page, newest first, strictly after `after` when given. */
export interface OwnedDiagramsQuery {
  ownerId: string;
  trashed: boolean;
  after: ListPosition | null;
  limit: number;
  /** Only the diagrams filed directly in this folder; null: only those in no folder. */
  folderId?: string | null;
  /** Only starred diagrams (true) or only the others (false). */
  starred?: boolean;
  /**
   * Only titles containing this text, compared in the form titleSearchKey
   * gives both (title-search.ts: Unicode normalisation and case folding, the
   * same on either engine); `%`, `_` and `\` are plain characters.
   */
  titleContains?: string;
}

/** How many diagrams a user has in each place the dashboard shows. */
export interface OwnedDiagramCounts {
  active: number;
  /** Active and starred. */
  starred: number;
  trashed: number;
  /** Active diagrams filed directly in each folder, by folder id (folders without any are absent). */
  byFolder: Record<string, number>;
}

/** Diagrams: their metadata, their scene and the facts the access policy needs. */
export interface DiagramStore {
  /**
   * Inserts the diagram unless its owner already has `quota` active diagrams;
   * concurrent creates cannot overshoot. Records `revision` as its first
   * revision (null records none).
   */
  create(diagram: DiagramRecord, quota: number, revision: RevisionInput | null): Promise<'created' | 'quota_exceeded'>;
  find(id: string): Promise<DiagramMeta | null>;
  /** The diagram (with elements) and the facts the access policy needs about `userId`, in one read. */
  findForUser(id: string, userId: string): Promise<{ diagram: DiagramRecord; access: AccessFacts } | null>;
  /** As findForUser, without reading the elements. */
  findMetaForUser(id: string, userId: string): Promise<{ diagram: DiagramMeta; access: AccessFacts } | null>;
  /** Owned diagrams, newest first, strictly after `after` when given, narrowed by the query's optional filters. */
  listOwned(query: OwnedDiagramsQuery): Promise<DiagramMeta[]>;
  countOwned(ownerId: string): Promise<OwnedDiagramCounts>;
  /**
   * Renames and/or moves; what changed (the titles, the folders with their names, read in the same
   * transaction) is recorded in the diagram's history as `recording` words it (null records none).
   */
  updateMeta(id: string, change: { title?: string; folderId?: string | null; updatedAt: string }, recording: ChangeRecording | null): Promise<DiagramMeta | null>;
  /** Trashes (keeping an earlier deletedAt) or restores. */
  setTrashed(id: string, trashed: boolean, now: string): Promise<void>;
  setStarred(id: string, starred: boolean): Promise<void>;
  /**
   * Replaces a diagram's content if its revision is still `expectedDocUpdatedAt`
   * (compared and written in one transaction, so of racing writers with the same
   * expectation exactly one wins), moving `docUpdatedAt` to a value unique per
   * write, resolving the comments whose element is gone and recording the
   * write's revision.
   */
  writeContent(write: ContentWrite): Promise<ContentWriteResult>;
}

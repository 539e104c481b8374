import type { Capability } from '../auth/capabilities.ts';
import type { AccessFacts, ShareRole, WorkspaceRole } from '../auth/policy.ts';
import type pg from 'pg';
import type { Engine } from './migrations.ts';

export interface UserRecord {
  id: string;
  email: string;
  emailVerified: boolean;
  quota: number;
  createdAt: string;
}

export interface SessionRecord {
  idHash: string;
  userId: string;
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
}

export type EmailTokenPurpose = 'verify_email' | 'reset_password';

export interface TokenRecord {
  id: string;
  userId: string;
  name: string;
  last4: string;
  capabilities: Capability[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

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

export interface FolderRecord {
  id: string;
  ownerId: string;
  name: string;
  parentId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface PublicLinkRecord {
  diagramId: string;
  slug: string;
  enabled: boolean;
  passwordHash: string | null;
  version: number;
  updatedAt: string;
}

export interface WorkspaceRecord {
  id: string;
  name: string;
  ownerId: string;
  createdAt: string;
}

export interface CommentRecord {
  id: string;
  diagramId: string;
  elementId: string | null;
  body: string;
  authorId: string;
  createdAt: string;
  resolved: boolean;
  resolvedReason: string | null;
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
}

export type ContentWriteResult =
  | { status: 'written'; docUpdatedAt: string; orphanedComments: number }
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
  /** Only the diagrams filed directly in this folder. */
  folderId?: string;
  /** Only starred diagrams. */
  starredOnly?: boolean;
  /** Only titles containing this text, ignoring case as the database's lower() folds it (ASCII letters everywhere). */
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

/** Thrown when an insert would break a uniqueness rule (e.g. a second user with one email). */
export class StoreConflict extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreConflict';
  }
}

/**
 * Everything the service keeps, behind one interface. The HTTP layer, the admin
 * CLI and the tests only ever see this; the engine is chosen at open time.
 * Every method is atomic on its own.
 */
export interface Store {
  readonly engine: Engine;
  /** The PostgreSQL pool, shared with components that keep state there (rate limits); null on SQLite. */
  readonly pgPool: pg.Pool | null;
  close(): Promise<void>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;

  createUser(user: UserRecord): Promise<UserRecord>;
  findUserByEmail(email: string): Promise<UserRecord | null>;
  findUserById(id: string): Promise<UserRecord | null>;
  setEmailVerified(userId: string, verified: boolean): Promise<void>;
  setQuota(userId: string, quota: number): Promise<void>;
  /** The account's password hash, or null when it has none. */
  findPasswordHash(userId: string): Promise<string | null>;
  setPasswordHash(userId: string, hash: string): Promise<void>;

  createSession(session: SessionRecord): Promise<void>;
  /** A session that has not expired at `now`, with its user. */
  findSession(idHash: string, now: string): Promise<{ session: SessionRecord; user: UserRecord } | null>;
  deleteSession(idHash: string): Promise<void>;
  /** Ends every session of a user (password reset), but `except`. */
  deleteSessionsOfUser(userId: string, except?: string): Promise<void>;

  createEmailToken(token: { tokenHash: string; userId: string; purpose: EmailTokenPurpose; createdAt: string; expiresAt: string }): Promise<void>;
  /** Uses a link once: the user id if it was unused, unexpired and for this purpose, else null. */
  consumeEmailToken(tokenHash: string, purpose: EmailTokenPurpose, now: string): Promise<string | null>;

  setDiagramStarred(id: string, starred: boolean): Promise<void>;
  /** Deletes a user's unused emailed links for one purpose (a password was just set: older reset links must not work). */
  deleteEmailTokensOfUser(userId: string, purpose: EmailTokenPurpose): Promise<void>;
  /** Deletes sessions and emailed links that expired before `now`; how many of each. */
  purgeExpired(now: string): Promise<{ sessions: number; emailTokens: number }>;

  insertToken(token: TokenRecord, tokenHash: string): Promise<void>;
  /**
   * The token with this hash, its user and the API switch, in one read, whatever
   * the token's state; the caller judges expiry and revocation.
   */
  findCredential(tokenHash: string): Promise<{ token: TokenRecord; user: UserRecord; apiEnabled: boolean } | null>;
  findToken(id: string): Promise<TokenRecord | null>;
  /** Sets revokedAt unless already set; returns the token as it now is. */
  revokeToken(id: string, now: string): Promise<TokenRecord | null>;
  listTokens(userId: string): Promise<TokenRecord[]>;
  touchToken(id: string, now: string): Promise<void>;

  isApiEnabled(): Promise<boolean>;
  setApiEnabled(enabled: boolean): Promise<void>;

  /** Creates the workspace with its owner as an admin member. */
  createWorkspace(workspace: WorkspaceRecord): Promise<WorkspaceRecord>;
  findWorkspace(id: string): Promise<WorkspaceRecord | null>;
  setWorkspaceMember(workspaceId: string, userId: string, role: WorkspaceRole): Promise<void>;

  /** Inserts the diagram unless its owner already has `quota` active diagrams; concurrent creates cannot overshoot. */
  createDiagram(diagram: DiagramRecord, quota: number): Promise<'created' | 'quota_exceeded'>;
  findDiagram(id: string): Promise<DiagramMeta | null>;
  /** The diagram (with elements) and the facts the access policy needs about `userId`, in one read. */
  findDiagramForUser(id: string, userId: string): Promise<{ diagram: DiagramRecord; access: AccessFacts } | null>;
  /** As findDiagramForUser, without reading the elements. */
  findDiagramMetaForUser(id: string, userId: string): Promise<{ diagram: DiagramMeta; access: AccessFacts } | null>;
  /** Owned diagrams, newest first, strictly after `after` when given, narrowed by the query's optional filters. */
  listOwnedDiagrams(query: OwnedDiagramsQuery): Promise<DiagramMeta[]>;
  countOwnedDiagrams(ownerId: string): Promise<OwnedDiagramCounts>;
  updateDiagramMeta(id: string, change: { title?: string; folderId?: string | null; updatedAt: string }): Promise<DiagramMeta | null>;
  /** Trashes (keeping an earlier deletedAt) or restores. */
  setDiagramTrashed(id: string, trashed: boolean, now: string): Promise<void>;
  setDiagramWorkspace(id: string, workspaceId: string | null): Promise<void>;
  shareDiagram(diagramId: string, userId: string, role: ShareRole): Promise<void>;

  /**
   * Replaces a diagram's content if its revision is still `expectedDocUpdatedAt`
   * (compared and written in one transaction, so of racing writers with the same
   * expectation exactly one wins), moving `docUpdatedAt` to a value unique per
   * write and resolving the comments whose element is gone.
   */
  writeContent(write: ContentWrite): Promise<ContentWriteResult>;

  addComment(comment: CommentRecord): Promise<CommentRecord>;
  listComments(diagramId: string): Promise<CommentRecord[]>;

  listFolders(ownerId: string): Promise<FolderRecord[]>;
  findFolder(id: string): Promise<FolderRecord | null>;
  createFolder(folder: FolderRecord): Promise<FolderRecord>;
  renameFolder(id: string, name: string, now: string): Promise<FolderRecord | null>;
  /** Deletes the folder: its diagrams become unfiled, its subfolders move up to its parent. */
  deleteFolder(id: string, now: string): Promise<void>;

  findPublicLink(diagramId: string): Promise<PublicLinkRecord | null>;
  /**
   * Applies a PUT to the diagram's public link, creating it with `slugIfNew` the
   * first time; `passwordHash` undefined leaves the password as it is. The
   * version increases by one per call, atomically.
   */
  updatePublicLink(
    diagramId: string,
    change: { enabled: boolean; passwordHash?: string | null },
    slugIfNew: string,
    now: string,
  ): Promise<PublicLinkRecord>;
  findPublicLinkBySlug(slug: string): Promise<{ link: PublicLinkRecord; diagram: DiagramRecord } | null>;
}

import type { AccountStore } from './accounts.ts';
import type { CommentStore } from './comments.ts';
import type { DiagramStore } from './diagrams.ts';
import type { FolderStore } from './folders.ts';
import type { HistoryStore } from './history.ts';
import type { Engine } from './migrations.ts';
import type { OAuthStore } from './oauth.ts';
import type { OperationsStore } from './operations.ts';
import type { PublicLinkStore } from './public-links.ts';
import type { RateLimitStore } from './rate-limits.ts';
import type { EmailTokenStore, SessionStore } from './sessions.ts';
import type { SharingStore } from './sharing.ts';
import type { TokenStore } from './tokens.ts';
import type { LiveBus } from './live-bus.ts';
import type { StoreUsage } from './usage.ts';

export type { AccountStore, UserRecord } from './accounts.ts';
export type { CommentRecord, CommentStore } from './comments.ts';
export { StoreConflict } from './conflict.ts';
export type {
  ContentWrite,
  ContentWriteResult,
  DiagramMeta,
  DiagramRecord,
  DiagramStore,
  ListPosition,
  OwnedDiagramCounts,
  OwnedDiagramsQuery,
} from './diagrams.ts';
export type { FolderRecord, FolderStore } from './folders.ts';
export type {
  Attribution,
  ContentRevision,
  HistoryStore,
  RetentionPolicy,
  RevisionDetail,
  RevisionInput,
  RevisionKind,
  RevisionRecord,
  Via,
} from './history.ts';
export type { OAuthCredential, OAuthEntry, OAuthGrantRecord, OAuthStore, StoredOAuthEntry } from './oauth.ts';
export type { OperationsStore } from './operations.ts';
export type { PublicLinkRecord, PublicLinkStore } from './public-links.ts';
export type { RateLimitBudget, RateLimitStore } from './rate-limits.ts';
export type { EmailTokenPurpose, EmailTokenRecord, EmailTokenStore, SessionRecord, SessionStore } from './sessions.ts';
export type {
  InvitationRecord,
  InvitationReward,
  InvitationTarget,
  MemberChange,
  MemberRecord,
  MemberWorkspace,
  ReachableDiagram,
  ReachableScope,
  ShareRecord,
  SharingStore,
  WorkspaceRecord,
} from './sharing.ts';
export type { Credential, TokenRecord, TokenStore } from './tokens.ts';
export type { ContentChange, LiveBus, LiveNotice } from './live-bus.ts';
export type { QueryErrorKind, StoreUsage } from './usage.ts';

/**
 * The aggregates the service keeps, one narrow interface each. Every method is
 * atomic on its own; `Store.transaction` groups calls into one unit of work.
 */
export interface StoreAggregates {
  readonly accounts: AccountStore;
  readonly sessions: SessionStore;
  readonly emailTokens: EmailTokenStore;
  readonly tokens: TokenStore;
  readonly diagrams: DiagramStore;
  readonly comments: CommentStore;
  readonly folders: FolderStore;
  readonly sharing: SharingStore;
  readonly publicLinks: PublicLinkStore;
  readonly operations: OperationsStore;
  readonly oauth: OAuthStore;
  readonly history: HistoryStore;
}

/**
 * Everything the service keeps. The use cases, the admin CLI and the tests only
 * ever see this; the engine is chosen at open time and nothing of it shows here.
 */
export interface Store extends StoreAggregates {
  /** Which database is behind the store, for the startup log. */
  readonly engine: Engine;
  /** Rate-limit counters, kept where the engine keeps them (not transactional). */
  readonly rateLimits: RateLimitStore;
  /** The live bus between the service's instances (src/store/live-bus.ts); content writes announce themselves on it. */
  readonly live: LiveBus;
  /**
   * Runs `work` as one unit of work: what it does through `tx` is committed
   * together when it resolves, and none of it is when it throws (the error is
   * rethrown). Inside, use only `tx`: on SQLite the store's own aggregates wait
   * for the transaction to end (a call awaited inside `work` never returns), and
   * on PostgreSQL they run outside it. Methods that are atomic on their own keep
   * their locking inside a unit of work and hold their locks until it ends.
   */
  transaction<T>(work: (tx: StoreAggregates) => Promise<T>): Promise<T>;
  /** The queries run and failed since the store opened, and PostgreSQL's connection pool (for the metrics). */
  usage(): StoreUsage;
  close(): Promise<void>;
}

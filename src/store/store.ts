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

export type { UserRecord } from './accounts.ts';
export type { CommentRecord } from './comments.ts';
export { StoreConflict } from './conflict.ts';
export type {
  ContentWriteResult,
  DiagramMeta,
  DiagramRecord,
  ListPosition,
  OwnedDiagramCounts,
} from './diagrams.ts';
export type { FolderRecord } from './folders.ts';
export type {
  ContentRevision,
  RevisionInput,
  RevisionDetail,
  RevisionKind,
  RevisionRecord,
  Via,
} from './history.ts';
export type { OAuthEntry, OAuthGrantRecord } from './oauth.ts';
export type { PublicLinkRecord } from './public-links.ts';
export type { EmailTokenPurpose } from './sessions.ts';
export type {
  InvitationRecord,
  InvitationTarget,
  MemberChange,
  MemberRecord,
  MemberWorkspace,
  ShareRecord,
  WorkspaceRecord,
} from './sharing.ts';
export type { TokenRecord } from './tokens.ts';
export type { ContentChange, LiveNotice } from './live-bus.ts';

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

import type pg from 'pg';
import type { Kysely } from 'kysely';
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
import { InProcessBus, type LiveBus } from './live-bus.ts';
import type { Database } from './schema.ts';
import type { EmailTokenStore, SessionStore } from './sessions.ts';
import type { SharingStore } from './sharing.ts';
import { SqlAccounts } from './sql/accounts.ts';
import { SqlComments } from './sql/comments.ts';
import { diagramsShared, SqlDiagrams } from './sql/diagrams.ts';
import { SqlFolders } from './sql/folders.ts';
import { SqlHistory } from './sql/history.ts';
import { SqlOAuth } from './sql/oauth.ts';
import { operationsQueries, SqlOperations } from './sql/operations.ts';
import { SqlPublicLinks } from './sql/public-links.ts';
import { MemoryRateLimits, PostgresRateLimits } from './sql/rate-limits.ts';
import { rootScope, type SqlScope, transactionScope } from './sql/scope.ts';
import { SqlSessions, SqlEmailTokens } from './sql/sessions.ts';
import { SqlSharing } from './sql/sharing.ts';
import { SqlTokens, tokenQueries } from './sql/tokens.ts';
import type { Store, StoreAggregates } from './store.ts';
import type { TokenStore } from './tokens.ts';
import { QueryCounts, type StoreUsage } from './usage.ts';

/**
 * The Store over Kysely: the same queries on SQLite and PostgreSQL, one class
 * per aggregate in `sql/`, each bound to a scope (the database, or a unit of
 * work's transaction).
 */
export class SqlStore implements Store {
  readonly engine: Engine;
  /** The database, for migrations and for tests that set up what no method writes. */
  readonly db: Kysely<Database>;
  readonly rateLimits: RateLimitStore;
  readonly live: LiveBus;
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
  private readonly bind: (scope: SqlScope) => StoreAggregates;
  private readonly onClose: () => Promise<void>;
  private readonly pgPool: pg.Pool | null;
  private readonly counts: QueryCounts;

  /**
   * `pgPool`: the pool behind `db` on PostgreSQL, where the rate-limit counters are kept too; null on SQLite.
   * `liveBus`: the bus between instances (PostgreSQL's LISTEN/NOTIFY); an in-process one when absent.
   * `counts`: where `db`'s log counts queries and their failures (openStore); absent, none are counted.
   */
  constructor(
    db: Kysely<Database>,
    engine: Engine,
    options: { pgPool?: pg.Pool | null; liveBus?: LiveBus; onClose?: () => Promise<void>; counts?: QueryCounts } = {},
  ) {
    this.db = db;
    this.engine = engine;
    this.pgPool = options.pgPool ?? null;
    this.counts = options.counts ?? new QueryCounts();
    this.onClose = options.onClose ?? (async () => {});
    this.rateLimits = options.pgPool ? new PostgresRateLimits(options.pgPool) : new MemoryRateLimits();
    this.live = options.liveBus ?? new InProcessBus();
    // Compiled once per store, shared by every scope.
    const diagrams = diagramsShared(db, this.live);
    const tokens = tokenQueries(db);
    const operations = operationsQueries(db);
    this.bind = (scope) => ({
      accounts: new SqlAccounts(scope),
      sessions: new SqlSessions(scope),
      emailTokens: new SqlEmailTokens(scope),
      tokens: new SqlTokens(scope, tokens),
      diagrams: new SqlDiagrams(scope, diagrams),
      comments: new SqlComments(scope),
      folders: new SqlFolders(scope),
      sharing: new SqlSharing(scope),
      publicLinks: new SqlPublicLinks(scope),
      operations: new SqlOperations(scope, operations),
      oauth: new SqlOAuth(scope),
      history: new SqlHistory(scope),
    });
    const root = this.bind(rootScope(db, engine));
    this.accounts = root.accounts;
    this.sessions = root.sessions;
    this.emailTokens = root.emailTokens;
    this.tokens = root.tokens;
    this.diagrams = root.diagrams;
    this.comments = root.comments;
    this.folders = root.folders;
    this.sharing = root.sharing;
    this.publicLinks = root.publicLinks;
    this.operations = root.operations;
    this.oauth = root.oauth;
    this.history = root.history;
  }

  async transaction<T>(work: (tx: StoreAggregates) => Promise<T>): Promise<T> {
    const effects: (() => void)[] = [];
    const result = await this.db.transaction().execute((trx) => work(this.bind(transactionScope(trx, this.engine, effects))));
    for (const effect of effects) effect();
    return result;
  }

  usage(): StoreUsage {
    const { pgPool, counts } = this;
    const pool = pgPool ? { max: pgPool.options.max ?? 10, total: pgPool.totalCount, idle: pgPool.idleCount, waiting: pgPool.waitingCount } : undefined;
    return { ...(pool ? { pool } : {}), queries: counts.queries, errors: { ...counts.errors } };
  }

  async close(): Promise<void> {
    await this.live.close();
    await this.db.destroy();
    await this.onClose();
  }
}

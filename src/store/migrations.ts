import { type Kysely, type Migration, type MigrationProvider, type MigrationResultSet, Migrator, sql } from 'kysely';
import { titleSearchKey } from './title-search.ts';

/** Versioned migrations, applied in name order at start (server and admin CLI alike). */
function migrationsFor(engine: Engine): Record<string, Migration> {
  return {
  '0001_core': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('email_verified', 'integer', (c) => c.notNull())
        .addColumn('quota', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('last4', 'text', (c) => c.notNull())
        .addColumn('capabilities', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('revoked_at', 'text')
        .addColumn('last_used_at', 'text')
        .execute();
      await db.schema.createIndex('tokens_user').on('tokens').column('user_id').execute();

      await db.schema
        .createTable('workspaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('workspace_members')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('workspace_members_pk', ['workspace_id', 'user_id'])
        .execute();

      await db.schema
        .createTable('folders')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('parent_id', 'text', (c) => c.references('folders.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('folders_owner').on('folders').columns(['owner_id', 'created_at']).execute();

      await db.schema
        .createTable('diagrams')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('folder_id', 'text', (c) => c.references('folders.id').onDelete('set null'))
        .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('set null'))
        .addColumn('starred', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('elements', 'text', (c) => c.notNull())
        .addColumn('element_count', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('doc_updated_at', 'text')
        .addColumn('deleted_at', 'text')
        .execute();
      await db.schema
        .createIndex('diagrams_owner_listing')
        .on('diagrams')
        .columns(['owner_id', 'created_at', 'id'])
        .execute();
      await db.schema.createIndex('diagrams_folder').on('diagrams').column('folder_id').execute();

      await db.schema
        .createTable('diagram_shares')
        .addColumn('diagram_id', 'text', (c) => c.notNull().references('diagrams.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('diagram_shares_pk', ['diagram_id', 'user_id'])
        .execute();

      await db.schema
        .createTable('public_links')
        .addColumn('diagram_id', 'text', (c) => c.primaryKey().references('diagrams.id').onDelete('cascade'))
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0002_rate_limits': {
    // Shared rate-limit counters (rate-limiter-flexible's PostgreSQL layout), so a
    // limit holds across server instances. SQLite deployments are one process and
    // count in memory, so the table is only made on PostgreSQL.
    async up(db: Kysely<any>) {
      if (engine !== 'postgres') return;
      await sql`create table if not exists rate_limits (key varchar(255) primary key, points integer not null default 0, expire bigint)`.execute(db);
    },
  },
  '0003_comments': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('comments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('diagram_id', 'text', (c) => c.notNull().references('diagrams.id').onDelete('cascade'))
        .addColumn('element_id', 'text')
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('author_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('resolved', 'integer', (c) => c.notNull())
        .addColumn('resolved_reason', 'text')
        .execute();
      await db.schema.createIndex('comments_diagram').on('comments').columns(['diagram_id', 'created_at']).execute();
    },
  },
  '0004_web_accounts': {
    async up(db: Kysely<any>) {
      // Accounts made by the admin CLI have no password until their owner resets it.
      await db.schema.alterTable('users').addColumn('password_hash', 'text').execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
      await db.schema
        .createTable('email_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
    },
  },
  '0005_title_search': {
    // The searched form of each title (title-search.ts), computed in the server so both engines match alike; filled in for existing rows.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('diagrams').addColumn('title_key', 'text', (c) => c.notNull().defaultTo('')).execute();
      const rows: Array<{ id: string; title: string }> = await db.selectFrom('diagrams').select(['id', 'title']).execute();
      for (const row of rows) {
        await db.updateTable('diagrams').set({ title_key: titleSearchKey(row.title) }).where('id', '=', row.id).execute();
      }
    },
  },
  '0006_oauth': {
    // The OAuth authorization server's clients, grants, codes and tokens, shared by every instance on the database.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('oauth_entries')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('grant_id', 'text')
        .addColumn('account_id', 'text')
        .addColumn('client_id', 'text')
        .addColumn('uid', 'text')
        .addColumn('user_code', 'text')
        .addColumn('expires_at', 'text')
        .addColumn('consumed_at', 'bigint')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addPrimaryKeyConstraint('oauth_entries_pk', ['kind', 'key'])
        .execute();
      await db.schema.createIndex('oauth_entries_grant').on('oauth_entries').column('grant_id').execute();
      await db.schema.createIndex('oauth_entries_uid').on('oauth_entries').columns(['kind', 'uid']).execute();
      await db.schema.createIndex('oauth_entries_user_code').on('oauth_entries').columns(['kind', 'user_code']).execute();
      await db.schema.createIndex('oauth_entries_account').on('oauth_entries').columns(['kind', 'account_id']).execute();
      await db.schema.createIndex('oauth_entries_expiry').on('oauth_entries').column('expires_at').execute();
    },
  },
  '0007_history': {
    // Every diagram's revisions: compressed snapshots with element-level deltas between them, and events (renames, moves).
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('revisions')
        .addColumn('diagram_id', 'text', (c) => c.notNull().references('diagrams.id').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('via', 'text')
        .addColumn('element_count', 'integer', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('detail', 'text')
        .addColumn('doc_updated_at', 'text')
        .addColumn('encoding', 'text')
        .addColumn('base_seq', 'integer')
        .addColumn('chain_length', 'integer')
        .addColumn('chain_bytes', 'integer')
        .addColumn('snapshot_bytes', 'integer')
        .addColumn('payload', engine === 'postgres' ? 'bytea' : 'blob')
        .addPrimaryKeyConstraint('revisions_pk', ['diagram_id', 'seq'])
        .execute();
      await db.schema.createIndex('revisions_at').on('revisions').column('at').execute();
      await db.schema.createIndex('revisions_user').on('revisions').column('user_id').execute();
    },
  },
  '0008_sharing': {
    // Sharing by the people themselves: when each share and membership began, invitations of addresses
    // without an account yet, and how much quota each account has earned by invitations accepted.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('diagram_shares').addColumn('created_at', 'text', (c) => c.notNull().defaultTo('')).execute();
      await sql`update diagram_shares set created_at = (select d.created_at from diagrams d where d.id = diagram_shares.diagram_id)`.execute(db);
      await db.schema.createIndex('diagram_shares_user').on('diagram_shares').column('user_id').execute();
      await db.schema.alterTable('workspace_members').addColumn('joined_at', 'text', (c) => c.notNull().defaultTo('')).execute();
      await sql`update workspace_members set joined_at = (select w.created_at from workspaces w where w.id = workspace_members.workspace_id)`.execute(db);
      await db.schema.createIndex('workspace_members_user').on('workspace_members').column('user_id').execute();
      await db.schema.createIndex('diagrams_workspace').on('diagrams').columns(['workspace_id', 'created_at', 'id']).execute();
      await db.schema.alterTable('users').addColumn('quota_earned', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema
        .createTable('invitations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('inviter_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('accepted_at', 'text')
        .execute();
      await db.schema.createIndex('invitations_target').on('invitations').columns(['kind', 'target_id', 'email']).unique().execute();
      await db.schema.createIndex('invitations_email').on('invitations').column('email').execute();
    },
  },
  '0009_active_count': {
    // Every create counts the owner's active diagrams for the quota: an index that answers the count
    // alone, so SQLite does not read each row (whose scene lies before deleted_at).
    async up(db: Kysely<any>) {
      await db.schema.createIndex('diagrams_owner_active').on('diagrams').columns(['owner_id', 'deleted_at']).execute();
    },
  },
  '0010_owner_listing': {
    // An owner's listing (newest first), its filters (trash, star, folder, title) and its counts, read from one
    // index: SQLite reads no diagram row but those it answers with (each row's scene lies before the columns
    // filtered on, so a filter that read the rows read every scene). It replaces 0001's listing index, its prefix.
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('diagrams_owner_listing_filters')
        .on('diagrams')
        .columns(['owner_id', 'created_at', 'id', 'deleted_at', 'starred', 'folder_id', 'title_key'])
        .execute();
      await db.schema.dropIndex('diagrams_owner_listing').execute();
    },
  },
  };
}

export type Engine = 'sqlite' | 'postgres';

/** The migrations this release knows, oldest first: the last is the schema version it runs. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrationsFor('sqlite')).sort();

/** The table Kysely's migrator records applied migrations in. */
export const MIGRATION_TABLE = 'kysely_migration';

function migratorFor(db: Kysely<any>, engine: Engine): Migrator {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(engine) };
  // On PostgreSQL the migrator holds an advisory lock while it runs, so instances starting together migrate one at a time.
  return new Migrator({ db, provider });
}

function throwIfFailed({ error, results }: MigrationResultSet): void {
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

export async function migrateToLatest(db: Kysely<any>, engine: Engine): Promise<void> {
  throwIfFailed(await migratorFor(db, engine).migrateToLatest());
}

/** Applies the migrations up to and including `name` (one this release knows), and no further. */
export async function migrateUpTo(db: Kysely<any>, engine: Engine, name: string): Promise<void> {
  throwIfFailed(await migratorFor(db, engine).migrateTo(name));
}

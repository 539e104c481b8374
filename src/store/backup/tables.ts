import type { Database } from '../schema.ts';

export type TableName = keyof Database;

/**
 * The tables a backup holds, in the order a restore inserts them: every table
 * comes after the tables its foreign keys name. A column naming a row of its
 * own table (`selfReferences`) is filled in once the whole table is in.
 * Left out: the migrator's own tables (the backup's header names the schema
 * version instead) and PostgreSQL's rate-limit counters, which expire within
 * the hour and are rebuilt by use.
 */
export const BACKUP_TABLES: ReadonlyArray<{ name: TableName; key: readonly string[]; selfReferences?: readonly string[] }> = [
  { name: 'users', key: ['id'] },
  { name: 'workspaces', key: ['id'] },
  { name: 'workspace_members', key: ['workspace_id', 'user_id'] },
  { name: 'folders', key: ['id'], selfReferences: ['parent_id'] },
  { name: 'diagrams', key: ['id'] },
  { name: 'diagram_shares', key: ['diagram_id', 'user_id'] },
  { name: 'invitations', key: ['id'] },
  { name: 'public_links', key: ['diagram_id'] },
  { name: 'comments', key: ['id'] },
  { name: 'revisions', key: ['diagram_id', 'seq'] },
  { name: 'tokens', key: ['id'] },
  { name: 'sessions', key: ['id_hash'] },
  { name: 'email_tokens', key: ['token_hash'] },
  { name: 'oauth_entries', key: ['kind', 'key'] },
  { name: 'settings', key: ['key'] },
];

/** Tables a database may hold that a backup leaves out on purpose. */
export const TABLES_NOT_BACKED_UP: readonly string[] = ['kysely_migration', 'kysely_migration_lock', 'rate_limits'];

export function backupTable(name: string) {
  return BACKUP_TABLES.find((t) => t.name === name);
}

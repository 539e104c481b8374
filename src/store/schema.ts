/**
 * Table shapes as Kysely sees them. Timestamps are ISO 8601 text with
 * millisecond precision (they sort correctly as text on both engines) and
 * booleans are 0/1 integers, so one set of queries serves SQLite and PostgreSQL.
 * Scene elements are stored as JSON text, byte for byte as serialised, not as
 * jsonb, which would reorder keys.
 */
import type { Generated } from 'kysely';

export interface UsersTable {
  id: string;
  email: string;
  email_verified: number;
  quota: number;
  created_at: string;
  /** scrypt hash (src/auth/passwords.ts); null for accounts without a password (made by the admin CLI). */
  password_hash: string | null;
  /** Diagrams of quota earned by invitations accepted so far (already part of `quota`), held to the cap. */
  quota_earned: Generated<number>;
}

/** Web sessions: only a SHA-256 of the cookie value is stored. */
interface SessionsTable {
  id_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

/** One-use links sent by email (verification, password reset): only a SHA-256 of the token is stored. */
interface EmailTokensTable {
  token_hash: string;
  user_id: string;
  purpose: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface TokensTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  last4: string;
  capabilities: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

interface WorkspacesTable {
  id: string;
  name: string;
  owner_id: string;
  created_at: string;
}

interface WorkspaceMembersTable {
  workspace_id: string;
  user_id: string;
  role: string;
  joined_at: string;
}

export interface FoldersTable {
  id: string;
  owner_id: string;
  name: string;
  parent_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface DiagramsTable {
  id: string;
  owner_id: string;
  title: string;
  /** The title as searched (title-search.ts). */
  title_key: string;
  folder_id: string | null;
  workspace_id: string | null;
  starred: number;
  elements: string;
  element_count: number;
  created_at: string;
  updated_at: string;
  doc_updated_at: string | null;
  deleted_at: string | null;
}

interface DiagramSharesTable {
  diagram_id: string;
  user_id: string;
  role: string;
  created_at: string;
}

/**
 * Invitations of an address to a diagram (`kind` diagram, a share role) or a
 * workspace (`kind` workspace, a workspace role); one per address and target.
 * Accepted when the address is verified, at most once.
 */
export interface InvitationsTable {
  id: string;
  email: string;
  kind: string;
  target_id: string;
  role: string;
  inviter_id: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
}

export interface PublicLinksTable {
  diagram_id: string;
  slug: string;
  enabled: number;
  password_hash: string | null;
  version: number;
  updated_at: string;
}

interface SettingsTable {
  key: string;
  value: string;
}

interface CommentsTable {
  id: string;
  diagram_id: string;
  element_id: string | null;
  body: string;
  author_id: string;
  created_at: string;
  resolved: number;
  resolved_reason: string | null;
}

/** The OAuth authorization server's artifacts (src/store/oauth.ts). */
export interface OAuthEntriesTable {
  kind: string;
  key: string;
  payload: string;
  grant_id: string | null;
  account_id: string | null;
  client_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: string | null;
  consumed_at: number | null;
  created_at: string;
  last_used_at: string | null;
}

/**
 * A diagram's revisions (src/store/history.ts). Content revisions carry a
 * gzip payload: the elements (a snapshot) or the delta from the content
 * revision before (src/domain/history/delta.ts); `base_seq` is the snapshot
 * the chain starts at, and the chain columns say how long it has grown.
 * Events (renames, moves) carry none.
 */
export interface RevisionsTable {
  diagram_id: string;
  seq: number;
  at: string;
  kind: string;
  user_id: string | null;
  /** JSON of the Via. */
  via: string | null;
  element_count: number;
  summary: string;
  /** JSON of the RevisionDetail. */
  detail: string | null;
  doc_updated_at: string | null;
  encoding: 'snapshot' | 'delta' | null;
  base_seq: number | null;
  chain_length: number | null;
  chain_bytes: number | null;
  snapshot_bytes: number | null;
  payload: Buffer | null;
}

export interface Database {
  users: UsersTable;
  tokens: TokensTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  folders: FoldersTable;
  diagrams: DiagramsTable;
  diagram_shares: DiagramSharesTable;
  invitations: InvitationsTable;
  public_links: PublicLinksTable;
  settings: SettingsTable;
  comments: CommentsTable;
  sessions: SessionsTable;
  email_tokens: EmailTokensTable;
  oauth_entries: OAuthEntriesTable;
  revisions: RevisionsTable;
}

import type { UserRecord } from './accounts.ts';

/**
 * One artifact of the OAuth authorization server (a registered client, a
 * grant, an authorization code, an access or refresh token, an interaction, a
 * session), kept as the authorization server's own JSON with the fields it is
 * looked up by alongside. The store knows nothing of the protocol: it keeps,
 * finds, consumes and deletes entries.
 */
export interface OAuthEntry {
  /** The artifact's kind (`Client`, `Grant`, `AccessToken`, …); kinds never mix. */
  kind: string;
  /** The entry's key within its kind. Tokens are keyed by a hash of their text, never the text itself. */
  key: string;
  /** The artifact as JSON text. */
  payload: string;
  /** The grant the entry belongs to: deleting a grant deletes every entry of it. */
  grantId: string | null;
  /** The account the entry acts for (grants and tokens). */
  accountId: string | null;
  /** The client the entry was issued to (grants and tokens). */
  clientId: string | null;
  uid: string | null;
  userCode: string | null;
  /** When the entry stops being found; null: never. */
  expiresAt: string | null;
}

/** An entry as read back: with when it was consumed (a used code, a rotated refresh token), in epoch seconds. */
export interface StoredOAuthEntry {
  payload: string;
  consumedAt: number | null;
}

/** A grant an account gave a client, as the tokens page lists it. */
export interface OAuthGrantRecord {
  grantId: string;
  accountId: string;
  clientId: string;
  /** The grant's JSON (what it allows). */
  grant: string;
  /** The client's registration JSON (its name, redirect URIs); null when the client is gone. */
  client: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

/** What an OAuth access token's key leads to, read at once: the token, its account and the API switch. */
export interface OAuthCredential {
  payload: string;
  grantId: string | null;
  user: UserRecord;
  apiEnabled: boolean;
}

/** The OAuth authorization server's artifacts, shared by every instance on the database. */
export interface OAuthStore {
  /**
   * Stores the entry, replacing one with the same kind and key. A replaced
   * entry keeps when it was first stored and last used; its consumption is
   * cleared.
   */
  upsert(entry: OAuthEntry, now: string): Promise<void>;
  /** The entry unless it is missing or expired at `now`. */
  find(kind: string, key: string, now: string): Promise<StoredOAuthEntry | null>;
  findByUid(kind: string, uid: string, now: string): Promise<StoredOAuthEntry | null>;
  findByUserCode(kind: string, userCode: string, now: string): Promise<StoredOAuthEntry | null>;
  /** Marks the entry consumed at `consumedAt` (epoch seconds); the first consumption stands. */
  consume(kind: string, key: string, consumedAt: number): Promise<void>;
  destroy(kind: string, key: string): Promise<void>;
  /** Deletes every entry of the grant, of any kind, the grant itself included. */
  deleteGrant(grantId: string): Promise<void>;
  /**
   * The access token under `key` (any state: the caller judges expiry and
   * audience), with its account and the API switch, in one read.
   */
  findCredential(kind: string, key: string): Promise<OAuthCredential | null>;
  /** The grants (kind `Grant`) of an account that have not expired at `now`, newest first. */
  listGrants(accountId: string, now: string): Promise<OAuthGrantRecord[]>;
  /** Records that a token of the grant was used. */
  touchGrant(grantId: string, now: string): Promise<void>;
  /**
   * The secret stored under `name`, storing what `create` makes first when
   * there is none: of instances racing on a fresh database, all end up with
   * the one stored first.
   */
  secret(name: string, create: () => string): Promise<string>;
  /** Deletes the entries expired at `now`; returns how many. */
  purgeExpired(now: string): Promise<number>;
}

import type { Capability } from '../auth/capabilities.ts';
import type { UserRecord } from './accounts.ts';

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

/** What a bearer token's hash leads to, read at once. */
export interface Credential {
  token: TokenRecord;
  user: UserRecord;
  apiEnabled: boolean;
}

/** API tokens, stored by the hash of their secret. */
export interface TokenStore {
  insert(token: TokenRecord, tokenHash: string): Promise<void>;
  /**
   * The token with this hash, its user and the API switch, in one read, whatever
   * the token's state; the caller judges expiry and revocation.
   */
  findCredential(tokenHash: string): Promise<Credential | null>;
  find(id: string): Promise<TokenRecord | null>;
  /** Sets revokedAt unless already set; returns the token as it now is. */
  revoke(id: string, now: string): Promise<TokenRecord | null>;
  /** A user's tokens, newest first. */
  list(userId: string): Promise<TokenRecord[]>;
  touch(id: string, now: string): Promise<void>;
}

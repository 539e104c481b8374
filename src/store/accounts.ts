export interface UserRecord {
  id: string;
  email: string;
  emailVerified: boolean;
  /** Active diagrams the account may keep; Infinity: no limit. */
  quota: number;
  createdAt: string;
}

/** People's accounts: the user records and their password hashes. */
export interface AccountStore {
  /** Stores the user; a second user with the same email is a StoreConflict and stores nothing. */
  create(user: UserRecord): Promise<UserRecord>;
  findByEmail(email: string): Promise<UserRecord | null>;
  findById(id: string): Promise<UserRecord | null>;
  setEmailVerified(userId: string, verified: boolean): Promise<void>;
  setQuota(userId: string, quota: number): Promise<void>;
  /** The account's password hash, or null when it has none. */
  findPasswordHash(userId: string): Promise<string | null>;
  setPasswordHash(userId: string, hash: string): Promise<void>;
}

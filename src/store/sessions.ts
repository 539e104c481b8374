import type { UserRecord } from './accounts.ts';

export interface SessionRecord {
  idHash: string;
  userId: string;
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
}

/** Web sign-in sessions, by the hash of their id. */
export interface SessionStore {
  create(session: SessionRecord): Promise<void>;
  /** A session that has not expired at `now`, with its user. */
  find(idHash: string, now: string): Promise<{ session: SessionRecord; user: UserRecord } | null>;
  delete(idHash: string): Promise<void>;
  /** Ends every session of a user (password reset), but `except`. */
  deleteOfUser(userId: string, except?: string): Promise<void>;
}

export type EmailTokenPurpose = 'verify_email' | 'reset_password';

export interface EmailTokenRecord {
  tokenHash: string;
  userId: string;
  purpose: EmailTokenPurpose;
  createdAt: string;
  expiresAt: string;
}

/** The links sent by email (address verification, password reset), by the hash of their token. */
export interface EmailTokenStore {
  create(token: EmailTokenRecord): Promise<void>;
  /** Uses a link once: the user id if it was unused, unexpired and for this purpose, else null. */
  consume(tokenHash: string, purpose: EmailTokenPurpose, now: string): Promise<string | null>;
  /** Deletes a user's unused emailed links for one purpose (a password was just set: older reset links must not work). */
  deleteOfUser(userId: string, purpose: EmailTokenPurpose): Promise<void>;
}

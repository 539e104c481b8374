/** Rules every way of making an account shares (the admin CLI, web sign-up). */
/** The quota settings' defaults: free accounts start with 3 diagrams, gain 2 per person who joins by their invitation, at most 10 in all. */
export const QUOTA_DEFAULTS = { defaultQuota: 3, inviteQuotaBonus: 2, inviteQuotaCap: 10 } as const;

/** Diagrams a new account may keep when DEFAULT_QUOTA is not set: free accounts start with 3. */
export const DEFAULT_QUOTA = QUOTA_DEFAULTS.defaultQuota;

/** No whitespace or control characters (a NUL is not storable on PostgreSQL), one @, a dot in the domain. */
const EMAIL = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;
/** RFC 5321's limit on a forward path. */
const EMAIL_MAX_LENGTH = 254;

/** The stored form of an address (trimmed, lower-cased), or null when it is not one. */
export function normaliseEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  return email.length <= EMAIL_MAX_LENGTH && EMAIL.test(email) ? email : null;
}

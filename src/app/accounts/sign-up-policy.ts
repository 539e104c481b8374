/**
 * Who may make an account from the web (SIGNUP, SIGNUP_DOMAINS). Every way
 * the web makes an account asks here first; the admin CLI does not (an
 * operator makes whatever account they like).
 *
 * - `closed`: nobody.
 * - `invite`: only an address holding a pending invitation (not accepted,
 *   cancelled or expired).
 * - `open`: an address in one of SIGNUP_DOMAINS (any, when unset), and any
 *   address holding a pending invitation, whatever its domain: a member chose
 *   to invite it.
 */
import type { Config } from '../../config.ts';
import type { AppDeps } from '../deps.ts';

/** Why the web will not make an account for an address. */
export type SignUpRefusal = 'closed' | 'invitation_required' | 'domain_not_accepted';

/** Whether SIGNUP_DOMAINS lets the address (normalised) in by its domain alone. */
function domainAccepted(settings: Pick<Config, 'signupDomains'>, email: string): boolean {
  if (settings.signupDomains.length === 0) return true;
  return settings.signupDomains.includes(email.slice(email.lastIndexOf('@') + 1));
}

/** Why the address (normalised) may not sign up on the web now, or null when it may. */
export async function signUpRefusal(deps: AppDeps, email: string): Promise<SignUpRefusal | null> {
  const { signup } = deps.config;
  if (signup === 'closed') return 'closed';
  if (signup === 'open' && domainAccepted(deps.config, email)) return null;
  if (await deps.store.sharing.hasPendingInvitation(email, deps.now().toISOString())) return null;
  return signup === 'invite' ? 'invitation_required' : 'domain_not_accepted';
}

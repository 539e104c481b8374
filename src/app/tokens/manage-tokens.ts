import { notFound } from '../../errors.ts';
import type { TokenRecord } from '../../store/store.ts';
import type { Caller, StoreDeps } from '../deps.ts';

/** The caller's tokens, revoked and expired ones included (their secrets are never kept). */
export function listTokens(deps: StoreDeps, caller: Caller): Promise<TokenRecord[]> {
  return deps.store.tokens.list(caller.user.id);
}

/**
 * Revokes one of the caller's tokens; someone else's token id is the same
 * not_found as an unknown one, and nothing changes. Revocation acts on the
 * token's next API request, which checks it against the database every time.
 */
export async function revokeOwnToken(deps: StoreDeps, caller: Caller, tokenId: string): Promise<void> {
  const token = await deps.store.tokens.find(tokenId);
  if (!token || token.userId !== caller.user.id) throw notFound();
  await deps.store.tokens.revoke(token.id, deps.now().toISOString());
}

/** The operator's revocation: any token by id; null when there is none. */
export function revokeAnyToken(deps: StoreDeps, tokenId: string): Promise<TokenRecord | null> {
  return deps.store.tokens.revoke(tokenId, deps.now().toISOString());
}

/** The tokens of an account, for the operator. */
export function tokensOf(deps: StoreDeps, userId: string): Promise<TokenRecord[]> {
  return deps.store.tokens.list(userId);
}

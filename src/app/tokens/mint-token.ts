import { randomUUID } from 'node:crypto';
import type { Capability } from '../../auth/capabilities.ts';
import { generateToken, hashToken } from '../../auth/token.ts';
import { sanitizeTitle } from '../../domain/title.ts';
import type { TokenRecord } from '../../store/store.ts';
import type { StoreDeps } from '../deps.ts';

export const TOKEN_NAME_MAX_LENGTH = 100;

/** A token name as stored: sanitised like a title, at most 100 characters; '' when nothing is left. */
export function tokenName(raw: string): string {
  return sanitizeTitle(raw, TOKEN_NAME_MAX_LENGTH);
}

export interface MintRequest {
  userId: string;
  /** Already passed through tokenName and not empty. */
  name: string;
  capabilities: Capability[];
  expiresAt: string | null;
  now: Date;
}

/**
 * Mints a personal access token: stores only its SHA-256 and last four
 * characters and returns the text, which nothing shows again.
 */
export async function mintToken(deps: StoreDeps, request: MintRequest): Promise<{ record: TokenRecord; token: string }> {
  const token = generateToken();
  const record: TokenRecord = {
    id: randomUUID(),
    userId: request.userId,
    name: request.name,
    last4: token.slice(-4),
    capabilities: request.capabilities,
    createdAt: request.now.toISOString(),
    expiresAt: request.expiresAt,
    revokedAt: null,
    lastUsedAt: null,
  };
  await deps.store.tokens.insert(record, hashToken(token));
  return { record, token };
}

import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../app/deps.ts';
import { bearerToken, hashToken, isWellFormedToken } from '../auth/token.ts';
import type { Actor } from './route.ts';

/** lastUsedAt is written at most this often per token, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

/** Resolves the bearer token to an actor. Never logs or echoes the token. */
export class Authenticator {
  private readonly lastTouched = new Map<string, number>();
  private readonly deps: AppDeps;

  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  /**
   * Reads the bearer token and, in the same database round trip, the API
   * switch. `actor` is null for every kind of bad token alike.
   */
  async resolve(request: FastifyRequest): Promise<{ actor: Actor | null; apiEnabled: boolean }> {
    const token = bearerToken(request.headers.authorization);
    const credential = token && isWellFormedToken(token) ? await this.deps.store.tokens.findCredential(hashToken(token)) : null;
    if (!credential) return { actor: null, apiEnabled: await this.deps.store.operations.isApiEnabled() };
    const { token: record, user, apiEnabled } = credential;
    const now = this.deps.now();
    const expired = record.expiresAt !== null && Date.parse(record.expiresAt) <= now.getTime();
    if (record.revokedAt !== null || expired) return { actor: null, apiEnabled };
    this.touch(record.id, now, request);
    return { actor: { user, tokenId: record.id, capabilities: record.capabilities }, apiEnabled };
  }

  private touch(tokenId: string, now: Date, request: FastifyRequest): void {
    const last = this.lastTouched.get(tokenId) ?? 0;
    if (now.getTime() - last < TOUCH_INTERVAL_MS) return;
    this.lastTouched.set(tokenId, now.getTime());
    if (this.lastTouched.size > 100_000) this.lastTouched.clear();
    this.deps.store.tokens.touch(tokenId, now.toISOString()).catch((error: unknown) => {
      request.log.warn({ err: error }, 'could not record token use');
    });
  }
}

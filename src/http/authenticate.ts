import type { FastifyRequest } from 'fastify';
import { hashToken, isWellFormedToken } from '../auth/token.ts';
import { ApiError } from '../errors.ts';
import type { Actor, AppDeps } from './route.ts';

/** lastUsedAt is written at most this often per token, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Resolves the bearer token to an actor, or throws one indistinguishable 401 for
 * every kind of bad token. Never logs or echoes the token.
 */
export class Authenticator {
  private readonly lastTouched = new Map<string, number>();
  private readonly deps: AppDeps;

  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  async authenticate(request: FastifyRequest): Promise<Actor> {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer +(\S+) *$/i.exec(header) : null;
    const token = match?.[1];
    if (!token || !isWellFormedToken(token)) throw new ApiError('unauthorized');
    const credential = await this.deps.store.findCredential(hashToken(token));
    const now = this.deps.now();
    if (!credential) throw new ApiError('unauthorized');
    const { token: record, user } = credential;
    if (record.revokedAt !== null) throw new ApiError('unauthorized');
    if (record.expiresAt !== null && Date.parse(record.expiresAt) <= now.getTime()) throw new ApiError('unauthorized');
    this.touch(record.id, now, request);
    return { user, tokenId: record.id, capabilities: record.capabilities };
  }

  private touch(tokenId: string, now: Date, request: FastifyRequest): void {
    const last = this.lastTouched.get(tokenId) ?? 0;
    if (now.getTime() - last < TOUCH_INTERVAL_MS) return;
    this.lastTouched.set(tokenId, now.getTime());
    if (this.lastTouched.size > 100_000) this.lastTouched.clear();
    this.deps.store.touchToken(tokenId, now.toISOString()).catch((error: unknown) => {
      request.log.warn({ err: error }, 'could not record token use');
    });
  }
}

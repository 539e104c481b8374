import type { UserRecord } from '../accounts.ts';
import type { EmailTokenPurpose, EmailTokenRecord, EmailTokenStore, SessionRecord, SessionStore } from '../sessions.ts';
import type { SqlScope } from './scope.ts';
import { toUser } from './rows.ts';

export class SqlSessions implements SessionStore {
  private readonly scope: SqlScope;

  constructor(scope: SqlScope) {
    this.scope = scope;
  }

  async create(session: SessionRecord): Promise<void> {
    await this.scope.db
      .insertInto('sessions')
      .values({ id_hash: session.idHash, user_id: session.userId, csrf_token: session.csrfToken, created_at: session.createdAt, expires_at: session.expiresAt })
      .execute();
  }

  async find(idHash: string, now: string): Promise<{ session: SessionRecord; user: UserRecord } | null> {
    const row = await this.scope.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.id_hash', 's.user_id', 's.csrf_token', 's.created_at', 's.expires_at', 'u.id', 'u.email', 'u.email_verified', 'u.quota', 'u.created_at as user_created_at'])
      .where('s.id_hash', '=', idHash)
      .where('s.expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return null;
    return {
      session: { idHash: row.id_hash, userId: row.user_id, csrfToken: row.csrf_token, createdAt: row.created_at, expiresAt: row.expires_at },
      user: toUser({ id: row.id, email: row.email, email_verified: row.email_verified, quota: row.quota, created_at: row.user_created_at }),
    };
  }

  async delete(idHash: string): Promise<void> {
    await this.scope.db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  }

  async deleteOfUser(userId: string, except?: string): Promise<void> {
    let query = this.scope.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (except !== undefined) query = query.where('id_hash', '!=', except);
    await query.execute();
  }
}

export class SqlEmailTokens implements EmailTokenStore {
  private readonly scope: SqlScope;

  constructor(scope: SqlScope) {
    this.scope = scope;
  }

  async create(token: EmailTokenRecord): Promise<void> {
    await this.scope.db
      .insertInto('email_tokens')
      .values({ token_hash: token.tokenHash, user_id: token.userId, purpose: token.purpose, created_at: token.createdAt, expires_at: token.expiresAt, used_at: null })
      .execute();
  }

  async consume(tokenHash: string, purpose: EmailTokenPurpose, now: string): Promise<string | null> {
    // One statement: two requests racing for one link cannot both use it.
    const row = await this.scope.db
      .updateTable('email_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  async deleteOfUser(userId: string, purpose: EmailTokenPurpose): Promise<void> {
    await this.scope.db.deleteFrom('email_tokens').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
  }
}

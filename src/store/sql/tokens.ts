import type { Kysely, Selectable } from 'kysely';
import { parseCapabilityList } from '../../auth/capabilities.ts';
import type { Database, TokensTable } from '../schema.ts';
import type { Credential, TokenRecord, TokenStore } from '../tokens.ts';
import { toUser } from './rows.ts';
import { param, prepared, type SqlScope } from './scope.ts';

const toToken = (r: Selectable<TokensTable>): TokenRecord => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  last4: r.last4,
  capabilities: parseCapabilityList(r.capabilities),
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  lastUsedAt: r.last_used_at,
});

/** The query every API request runs, compiled once per store. */
export function tokenQueries(db: Kysely<Database>) {
  return {
    credential: prepared(
      db
        .selectFrom('tokens as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .selectAll('t')
        .select(['u.email', 'u.email_verified', 'u.quota', 'u.created_at as user_created_at'])
        .select((eb) => eb.selectFrom('settings').select('value').where('key', '=', 'api_enabled').as('api_setting'))
        .where('t.token_hash', '=', param('hash')),
    ),
  };
}

export class SqlTokens implements TokenStore {
  private readonly scope: SqlScope;
  private readonly queries: ReturnType<typeof tokenQueries>;

  constructor(scope: SqlScope, queries: ReturnType<typeof tokenQueries>) {
    this.scope = scope;
    this.queries = queries;
  }

  async insert(token: TokenRecord, tokenHash: string): Promise<void> {
    await this.scope.db
      .insertInto('tokens')
      .values({
        id: token.id,
        user_id: token.userId,
        name: token.name,
        token_hash: tokenHash,
        last4: token.last4,
        capabilities: token.capabilities.join(','),
        created_at: token.createdAt,
        expires_at: token.expiresAt,
        revoked_at: token.revokedAt,
        last_used_at: token.lastUsedAt,
      })
      .execute();
  }

  async findCredential(tokenHash: string): Promise<Credential | null> {
    const [row] = await this.queries.credential(this.scope.db, { hash: tokenHash });
    if (!row) return null;
    return {
      token: toToken(row),
      user: toUser({
        id: row.user_id,
        email: row.email,
        email_verified: row.email_verified,
        quota: row.quota,
        created_at: row.user_created_at,
      }),
      apiEnabled: row.api_setting !== 'false',
    };
  }

  async find(id: string): Promise<TokenRecord | null> {
    const row = await this.scope.db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toToken(row) : null;
  }

  async revoke(id: string, now: string): Promise<TokenRecord | null> {
    await this.scope.db.updateTable('tokens').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    return this.find(id);
  }

  async list(userId: string): Promise<TokenRecord[]> {
    const rows = await this.scope.db
      .selectFrom('tokens')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toToken);
  }

  async touch(id: string, now: string): Promise<void> {
    await this.scope.db.updateTable('tokens').set({ last_used_at: now }).where('id', '=', id).execute();
  }
}

import type { Selectable } from 'kysely';
import type { OAuthCredential, OAuthEntry, OAuthGrantRecord, OAuthStore, StoredOAuthEntry } from '../oauth.ts';
import type { OAuthEntriesTable } from '../schema.ts';
import { toUser } from './rows.ts';
import type { SqlScope } from './scope.ts';

const GRANT_KIND = 'Grant';
const SECRET_PREFIX = 'oauth:';

const toStored = (row: Pick<Selectable<OAuthEntriesTable>, 'payload' | 'consumed_at'>): StoredOAuthEntry => ({
  payload: row.payload,
  consumedAt: row.consumed_at === null ? null : Number(row.consumed_at),
});

export class SqlOAuth implements OAuthStore {
  private readonly scope: SqlScope;

  constructor(scope: SqlScope) {
    this.scope = scope;
  }

  async upsert(entry: OAuthEntry, now: string): Promise<void> {
    const fields = {
      payload: entry.payload,
      grant_id: entry.grantId,
      account_id: entry.accountId,
      client_id: entry.clientId,
      uid: entry.uid,
      user_code: entry.userCode,
      expires_at: entry.expiresAt,
      consumed_at: null,
    };
    await this.scope.db
      .insertInto('oauth_entries')
      .values({ kind: entry.kind, key: entry.key, created_at: now, last_used_at: null, ...fields })
      .onConflict((oc) => oc.columns(['kind', 'key']).doUpdateSet(fields))
      .execute();
  }

  private live(now: string) {
    return this.scope.db
      .selectFrom('oauth_entries')
      .select(['payload', 'consumed_at'])
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  }

  async find(kind: string, key: string, now: string): Promise<StoredOAuthEntry | null> {
    const row = await this.live(now).where('kind', '=', kind).where('key', '=', key).executeTakeFirst();
    return row ? toStored(row) : null;
  }

  async findByUid(kind: string, uid: string, now: string): Promise<StoredOAuthEntry | null> {
    const row = await this.live(now).where('kind', '=', kind).where('uid', '=', uid).executeTakeFirst();
    return row ? toStored(row) : null;
  }

  async findByUserCode(kind: string, userCode: string, now: string): Promise<StoredOAuthEntry | null> {
    const row = await this.live(now).where('kind', '=', kind).where('user_code', '=', userCode).executeTakeFirst();
    return row ? toStored(row) : null;
  }

  async consume(kind: string, key: string, consumedAt: number): Promise<void> {
    await this.scope.db
      .updateTable('oauth_entries')
      .set({ consumed_at: consumedAt })
      .where('kind', '=', kind)
      .where('key', '=', key)
      .where('consumed_at', 'is', null)
      .execute();
  }

  async destroy(kind: string, key: string): Promise<void> {
    await this.scope.db.deleteFrom('oauth_entries').where('kind', '=', kind).where('key', '=', key).execute();
  }

  async deleteGrant(grantId: string): Promise<void> {
    await this.scope.db
      .deleteFrom('oauth_entries')
      .where((eb) => eb.or([eb('grant_id', '=', grantId), eb.and([eb('kind', '=', GRANT_KIND), eb('key', '=', grantId)])]))
      .execute();
  }

  async findCredential(kind: string, key: string): Promise<OAuthCredential | null> {
    const row = await this.scope.db
      .selectFrom('oauth_entries as o')
      .innerJoin('users as u', 'u.id', 'o.account_id')
      .select(['o.payload', 'o.grant_id', 'u.id', 'u.email', 'u.email_verified', 'u.quota', 'u.created_at'])
      .select((eb) => eb.selectFrom('settings').select('value').where('key', '=', 'api_enabled').as('api_setting'))
      .where('o.kind', '=', kind)
      .where('o.key', '=', key)
      .executeTakeFirst();
    if (!row) return null;
    return {
      payload: row.payload,
      grantId: row.grant_id,
      user: toUser({ id: row.id, email: row.email, email_verified: row.email_verified, quota: row.quota, created_at: row.created_at }),
      apiEnabled: row.api_setting !== 'false',
    };
  }

  async listGrants(accountId: string, now: string): Promise<OAuthGrantRecord[]> {
    const rows = await this.scope.db
      .selectFrom('oauth_entries as g')
      .leftJoin('oauth_entries as c', (join) => join.onRef('c.key', '=', 'g.client_id').on('c.kind', '=', 'Client'))
      .select(['g.key', 'g.account_id', 'g.client_id', 'g.payload', 'g.created_at', 'g.last_used_at', 'c.payload as client_payload'])
      .where('g.kind', '=', GRANT_KIND)
      .where('g.account_id', '=', accountId)
      .where((eb) => eb.or([eb('g.expires_at', 'is', null), eb('g.expires_at', '>', now)]))
      .orderBy('g.created_at', 'desc')
      .orderBy('g.key', 'desc')
      .execute();
    return rows.map((r) => ({
      grantId: r.key,
      accountId: r.account_id ?? accountId,
      clientId: r.client_id ?? '',
      grant: r.payload,
      client: r.client_payload ?? null,
      createdAt: r.created_at,
      lastUsedAt: r.last_used_at,
    }));
  }

  async touchGrant(grantId: string, now: string): Promise<void> {
    await this.scope.db.updateTable('oauth_entries').set({ last_used_at: now }).where('kind', '=', GRANT_KIND).where('key', '=', grantId).execute();
  }

  async secret(name: string, create: () => string): Promise<string> {
    const key = `${SECRET_PREFIX}${name}`;
    const read = () => this.scope.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    const stored = await read();
    if (stored) return stored.value;
    await this.scope.db
      .insertInto('settings')
      .values({ key, value: create() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return (await read())!.value;
  }

  async purgeExpired(now: string): Promise<number> {
    const result = await this.scope.db.deleteFrom('oauth_entries').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

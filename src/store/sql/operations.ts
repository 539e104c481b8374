import { type Kysely, sql } from 'kysely';
import type { OperationsStore } from '../operations.ts';
import type { Database } from '../schema.ts';
import { prepared, type SqlScope } from './scope.ts';

/** The API switch's read, which every unauthenticated API request runs, compiled once per store. */
export function operationsQueries(db: Kysely<Database>) {
  return { apiSetting: prepared(db.selectFrom('settings').select('value').where('key', '=', 'api_enabled')) };
}

export class SqlOperations implements OperationsStore {
  private readonly scope: SqlScope;
  private readonly queries: ReturnType<typeof operationsQueries>;

  constructor(scope: SqlScope, queries: ReturnType<typeof operationsQueries>) {
    this.scope = scope;
    this.queries = queries;
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.scope.db);
  }

  async isApiEnabled(): Promise<boolean> {
    const [row] = await this.queries.apiSetting(this.scope.db, {});
    return row?.value !== 'false';
  }

  async setApiEnabled(enabled: boolean): Promise<void> {
    const value = enabled ? 'true' : 'false';
    await this.scope.db
      .insertInto('settings')
      .values({ key: 'api_enabled', value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }

  async purgeExpired(now: string): Promise<{ sessions: number; emailTokens: number }> {
    const sessions = await this.scope.db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
    const emailTokens = await this.scope.db.deleteFrom('email_tokens').where('expires_at', '<=', now).executeTakeFirst();
    return { sessions: Number(sessions.numDeletedRows), emailTokens: Number(emailTokens.numDeletedRows) };
  }
}

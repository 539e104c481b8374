import type { AccountStore, UserRecord } from '../accounts.ts';
import { StoreConflict } from '../conflict.ts';
import { quotaToColumn, toUser } from './rows.ts';
import { isUniqueViolation, type SqlScope } from './scope.ts';

export class SqlAccounts implements AccountStore {
  private readonly scope: SqlScope;

  constructor(scope: SqlScope) {
    this.scope = scope;
  }

  async create(user: UserRecord): Promise<UserRecord> {
    try {
      await this.scope.db
        .insertInto('users')
        .values({
          id: user.id,
          email: user.email,
          email_verified: user.emailVerified ? 1 : 0,
          quota: quotaToColumn(user.quota),
          created_at: user.createdAt,
          password_hash: null,
        })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new StoreConflict(`a user with email ${user.email} already exists`);
      throw error;
    }
    return user;
  }

  async findByEmail(email: string): Promise<UserRecord | null> {
    const row = await this.scope.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async findById(id: string): Promise<UserRecord | null> {
    const row = await this.scope.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async setEmailVerified(userId: string, verified: boolean): Promise<void> {
    await this.scope.db.updateTable('users').set({ email_verified: verified ? 1 : 0 }).where('id', '=', userId).execute();
  }

  async setQuota(userId: string, quota: number): Promise<void> {
    await this.scope.db.updateTable('users').set({ quota: quotaToColumn(quota) }).where('id', '=', userId).execute();
  }

  async findPasswordHash(userId: string): Promise<string | null> {
    const row = await this.scope.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
    return row?.password_hash ?? null;
  }

  async setPasswordHash(userId: string, hash: string): Promise<void> {
    await this.scope.db.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
  }
}

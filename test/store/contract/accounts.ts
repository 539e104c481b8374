import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { StoreConflict } from '../../../src/store/store.ts';
import { at, type ContractContext, createUser, uniqueEmail, userRecord } from './fixtures.ts';

/** The accounts aggregate: users and their password hashes. */
export function accountsContract({ withStore }: ContractContext): void {
  describe('accounts', () => {
    test('a second user with an existing email is a StoreConflict and is not stored', () =>
      withStore(async (store) => {
        const first = await createUser(store);
        const second = userRecord({ email: first.email });
        await assert.rejects(store.accounts.create(second), (error: unknown) => {
          assert.ok(error instanceof StoreConflict, `expected StoreConflict, got ${String(error)}`);
          return true;
        });
        assert.equal(await store.accounts.findById(second.id), null);
        assert.deepEqual(await store.accounts.findByEmail(first.email), first);
      }));

    test('a user is found by email and by id with every field as created, and an unknown one is null', () =>
      withStore(async (store) => {
        const verified = await createUser(store, { emailVerified: true, quota: 7, createdAt: at(1234) });
        const unverified = await createUser(store, { emailVerified: false, quota: 0, createdAt: at(99) });
        for (const user of [verified, unverified]) {
          assert.deepEqual(await store.accounts.findByEmail(user.email), user);
          assert.deepEqual(await store.accounts.findById(user.id), user);
        }
        assert.equal(await store.accounts.findByEmail(uniqueEmail('nobody')), null);
        assert.equal(await store.accounts.findById(randomUUID()), null);
      }));

    test("changing a user's verification and quota changes only that user", () =>
      withStore(async (store) => {
        const user = await createUser(store, { emailVerified: false, quota: 3 });
        const other = await createUser(store, { emailVerified: false, quota: 3 });
        await store.accounts.setEmailVerified(user.id, true);
        await store.accounts.setQuota(user.id, 12);
        assert.deepEqual(await store.accounts.findById(user.id), { ...user, emailVerified: true, quota: 12 });
        assert.deepEqual(await store.accounts.findById(other.id), other);
        await store.accounts.setEmailVerified(user.id, false);
        assert.equal((await store.accounts.findById(user.id))?.emailVerified, false);
      }));

    test('an account without a quota limit (Infinity) reads back as one, however it is found', () =>
      withStore(async (store) => {
        const user = await createUser(store, { quota: Infinity });
        assert.equal((await store.accounts.findById(user.id))?.quota, Infinity);
        await store.accounts.setQuota(user.id, 4);
        assert.equal((await store.accounts.findByEmail(user.email))?.quota, 4);
        await store.accounts.setQuota(user.id, Infinity);
        assert.equal((await store.accounts.findByEmail(user.email))?.quota, Infinity);
      }));

    test('a password hash is stored per user; accounts start without one', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const other = await createUser(store);
        assert.equal(await store.accounts.findPasswordHash(user.id), null);
        await store.accounts.setPasswordHash(user.id, 'scrypt$hash');
        assert.equal(await store.accounts.findPasswordHash(user.id), 'scrypt$hash');
        assert.equal(await store.accounts.findPasswordHash(other.id), null);
        assert.deepEqual(await store.accounts.findById(user.id), user, 'the user record never carries the hash');
      }));
  });
}

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { at, type ContractContext, createUser, tokenRecord } from './fixtures.ts';

/** API tokens and the credential read every API request makes. */
export function tokensContract({ withStore }: ContractContext): void {
  describe('tokens', () => {
    test('a credential read by hash returns the token, its user and the API switch', () =>
      withStore(async (store) => {
        const user = await createUser(store, { quota: 5, createdAt: at(7) });
        const token = tokenRecord(user.id, {
          capabilities: ['read', 'write', 'publish', 'delete'],
          createdAt: at(10),
          expiresAt: at(86_400_000),
        });
        await store.tokens.insert(token, 'hash-of-secret-1');
        const other = tokenRecord(user.id, { capabilities: ['read'] });
        await store.tokens.insert(other, 'hash-of-secret-2');

        assert.deepEqual(await store.tokens.findCredential('hash-of-secret-1'), { token, user, apiEnabled: true });
        assert.deepEqual(await store.tokens.findCredential('hash-of-secret-2'), { token: other, user, apiEnabled: true });
        await store.operations.setApiEnabled(false);
        assert.equal((await store.tokens.findCredential('hash-of-secret-1'))?.apiEnabled, false, 'the credential read carries the API switch');
        assert.equal(await store.tokens.findCredential('hash-of-nothing'), null);
        assert.deepEqual(await store.tokens.find(token.id), token);
        assert.equal(await store.tokens.find(randomUUID()), null);
      }));

    test('revoking a token sets revokedAt once; a second revoke keeps the first', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const token = tokenRecord(user.id);
        await store.tokens.insert(token, 'hash-revoke');

        const first = await store.tokens.revoke(token.id, at(100));
        assert.deepEqual(first, { ...token, revokedAt: at(100) });
        const second = await store.tokens.revoke(token.id, at(200));
        assert.equal(second?.revokedAt, at(100));
        assert.equal((await store.tokens.findCredential('hash-revoke'))?.token.revokedAt, at(100));
        assert.equal(await store.tokens.revoke(randomUUID(), at(300)), null);
      }));

    test("a user's tokens are listed newest first, and no one else's", () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const stranger = await createUser(store);
        const created = [at(30), at(10), at(50), at(20), at(40)].map((createdAt) => tokenRecord(user.id, { createdAt }));
        for (const [i, token] of created.entries()) await store.tokens.insert(token, `hash-list-${i}`);
        await store.tokens.insert(tokenRecord(stranger.id, { createdAt: at(60) }), 'hash-list-stranger');

        const listed = await store.tokens.list(user.id);
        assert.deepEqual(
          listed.map((t) => t.createdAt),
          [at(50), at(40), at(30), at(20), at(10)],
        );
        assert.deepEqual(
          new Set(listed.map((t) => t.id)),
          new Set(created.map((t) => t.id)),
        );
        assert.deepEqual(await store.tokens.list(randomUUID()), []);
      }));

    test('touching a token sets lastUsedAt and nothing else', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const token = tokenRecord(user.id);
        const untouched = tokenRecord(user.id);
        await store.tokens.insert(token, 'hash-touch');
        await store.tokens.insert(untouched, 'hash-untouched');
        await store.tokens.touch(token.id, at(500));
        assert.deepEqual(await store.tokens.find(token.id), { ...token, lastUsedAt: at(500) });
        await store.tokens.touch(token.id, at(900));
        assert.equal((await store.tokens.find(token.id))?.lastUsedAt, at(900));
        assert.deepEqual(await store.tokens.find(untouched.id), untouched);
      }));
  });
}

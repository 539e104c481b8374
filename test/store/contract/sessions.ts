import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { at, type ContractContext, createUser } from './fixtures.ts';

/** Web sessions and the links sent by email. */
export function sessionsContract({ withStore }: ContractContext): void {
  describe('sessions', () => {
    test('a session is found with its user until it expires, and not after it is deleted', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const session = { idHash: `s-${randomUUID()}`, userId: user.id, csrfToken: 'csrf', createdAt: at(0), expiresAt: at(1000) };
        await store.sessions.create(session);
        assert.deepEqual(await store.sessions.find(session.idHash, at(999)), { session, user });
        assert.equal(await store.sessions.find(session.idHash, at(1000)), null, 'expired at expiresAt');
        await store.sessions.delete(session.idHash);
        assert.equal(await store.sessions.find(session.idHash, at(1)), null);
      }));

    test("ending a user's sessions ends all but the one kept, and no one else's", () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const other = await createUser(store);
        const make = async (userId: string) => {
          const session = { idHash: `s-${randomUUID()}`, userId, csrfToken: 'c', createdAt: at(0), expiresAt: at(10_000) };
          await store.sessions.create(session);
          return session.idHash;
        };
        const [kept, ended, others] = [await make(user.id), await make(user.id), await make(other.id)];
        await store.sessions.deleteOfUser(user.id, kept);
        assert.ok(await store.sessions.find(kept, at(1)));
        assert.equal(await store.sessions.find(ended, at(1)), null);
        assert.ok(await store.sessions.find(others, at(1)));
        await store.sessions.deleteOfUser(user.id);
        assert.equal(await store.sessions.find(kept, at(1)), null);
      }));

  });

  describe('email tokens', () => {
    test('an email token is used once, only for its purpose and before it expires, even when raced', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const token = (tokenHash: string) => ({ tokenHash, userId: user.id, purpose: 'verify_email' as const, createdAt: at(0), expiresAt: at(1000) });
        await store.emailTokens.create(token('t1'));
        assert.equal(await store.emailTokens.consume('t1', 'reset_password', at(1)), null, 'wrong purpose');
        const raced = await Promise.all([1, 2, 3].map(() => store.emailTokens.consume('t1', 'verify_email', at(2))));
        assert.deepEqual(raced.filter((id) => id !== null), [user.id], 'exactly one use');
        await store.emailTokens.create(token('t2'));
        assert.equal(await store.emailTokens.consume('t2', 'verify_email', at(1000)), null, 'expired');
        assert.equal(await store.emailTokens.consume('nope', 'verify_email', at(1)), null);
      }));

  });
}

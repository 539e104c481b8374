import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { at, type ContractContext, createUser } from './fixtures.ts';

/** What the operator runs: the readiness ping, the API switch and the purge of expired sign-ins. */
export function operationsContract({ engineName, withStore }: ContractContext): void {
  describe('operations', () => {
    test(`${engineName}: the database answers a ping`, () =>
      withStore(async (store) => {
        await store.operations.ping();
      }));

    test(`${engineName}: usage counts the queries run, and a write a constraint refused as a constraint failure`, () =>
      withStore(async (store) => {
        const before = store.usage();
        const user = await createUser(store);
        await assert.rejects(store.accounts.create({ ...user, id: randomUUID() }), /already exists/);
        const after = store.usage();
        assert.ok(after.queries >= before.queries + 2, `queries went from ${before.queries} to ${after.queries}`);
        assert.equal(after.errors.constraint, before.errors.constraint + 1);
        assert.equal(after.errors.other, before.errors.other, 'nothing else failed');
        if (engineName === 'postgres') {
          assert.ok(after.pool && after.pool.max >= 1 && after.pool.total >= 1 && after.pool.idle <= after.pool.total, JSON.stringify(after.pool));
          assert.equal(after.pool.waiting, 0);
        } else {
          assert.equal(after.pool, undefined, 'SQLite has no connection pool');
        }
      }));

    test('the API is enabled by default and the switch turns it off and on', () =>
      withStore(async (store) => {
        assert.equal(await store.operations.isApiEnabled(), true);
        await store.operations.setApiEnabled(false);
        assert.equal(await store.operations.isApiEnabled(), false);
        await store.operations.setApiEnabled(false);
        assert.equal(await store.operations.isApiEnabled(), false);
        await store.operations.setApiEnabled(true);
        assert.equal(await store.operations.isApiEnabled(), true);
      }));

    test('a purge deletes expired sessions and emailed links, and keeps live ones', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const session = (idHash: string, expiresAt: string) => ({ idHash, userId: user.id, csrfToken: 'c', createdAt: at(0), expiresAt });
        await store.sessions.create(session(`old-${randomUUID()}`, at(100)));
        const live = session(`live-${randomUUID()}`, at(10_000));
        await store.sessions.create(live);
        const link = (tokenHash: string, expiresAt: string) => ({ tokenHash, userId: user.id, purpose: 'reset_password' as const, createdAt: at(0), expiresAt });
        await store.emailTokens.create(link(`old-${randomUUID()}`, at(100)));
        const liveLink = `live-${randomUUID()}`;
        await store.emailTokens.create(link(liveLink, at(10_000)));
        const purged = await store.operations.purgeExpired(at(5000));
        assert.ok(purged.sessions >= 1 && purged.emailTokens >= 1, JSON.stringify(purged));
        assert.ok(await store.sessions.find(live.idHash, at(5001)));
        assert.equal(await store.emailTokens.consume(liveLink, 'reset_password', at(5001)), user.id);
      }));
  });
}

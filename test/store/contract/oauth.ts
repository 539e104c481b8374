import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import type { OAuthEntry } from '../../../src/store/store.ts';
import { at, type ContractContext, createUser } from './fixtures.ts';

const entry = (overrides: Partial<OAuthEntry> = {}): OAuthEntry => ({
  kind: 'AccessToken',
  key: `k-${randomUUID()}`,
  payload: JSON.stringify({ n: 1 }),
  grantId: null,
  accountId: null,
  clientId: null,
  uid: null,
  userCode: null,
  expiresAt: null,
  ...overrides,
});

/** The OAuth authorization server's artifacts: entries by kind and key, grants with their codes and tokens, secrets. */
export function oauthContract({ withStore }: ContractContext): void {
  describe('oauth', () => {
    test('an entry is found by kind and key until it expires; kinds never mix', () =>
      withStore(async (store) => {
        const token = entry({ expiresAt: at(1000) });
        await store.oauth.upsert(token, at(0));
        assert.deepEqual(await store.oauth.find('AccessToken', token.key, at(999)), { payload: token.payload, consumedAt: null });
        assert.equal(await store.oauth.find('AccessToken', token.key, at(1000)), null, 'expired at expiresAt');
        assert.equal(await store.oauth.find('RefreshToken', token.key, at(0)), null);
        const forever = entry();
        await store.oauth.upsert(forever, at(0));
        assert.ok(await store.oauth.find('AccessToken', forever.key, at(10_000_000_000)));
      }));

    test('an upsert replaces the payload and clears consumption, keeping when it was first stored', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const grant = entry({ kind: 'Grant', accountId: user.id, clientId: 'c1', grantId: 'g1', key: 'g1' });
        await store.oauth.upsert(grant, at(5));
        await store.oauth.consume('Grant', 'g1', 100);
        assert.equal((await store.oauth.find('Grant', 'g1', at(6)))?.consumedAt, 100);
        await store.oauth.upsert({ ...grant, payload: '{"n":2}' }, at(50));
        assert.deepEqual(await store.oauth.find('Grant', 'g1', at(60)), { payload: '{"n":2}', consumedAt: null });
        const [listed] = await store.oauth.listGrants(user.id, at(60));
        assert.equal(listed?.createdAt, at(5));
      }));

    test('consuming marks the entry once: the first consumption stands', () =>
      withStore(async (store) => {
        const code = entry({ kind: 'AuthorizationCode' });
        await store.oauth.upsert(code, at(0));
        await store.oauth.consume('AuthorizationCode', code.key, 1700);
        await store.oauth.consume('AuthorizationCode', code.key, 1800);
        assert.equal((await store.oauth.find('AuthorizationCode', code.key, at(1)))?.consumedAt, 1700);
      }));

    test('entries are found by uid and by user code within their kind', () =>
      withStore(async (store) => {
        const session = entry({ kind: 'Session', uid: 'u-1' });
        const device = entry({ kind: 'DeviceCode', userCode: 'ABCD' });
        await store.oauth.upsert(session, at(0));
        await store.oauth.upsert(device, at(0));
        assert.equal((await store.oauth.findByUid('Session', 'u-1', at(1)))?.payload, session.payload);
        assert.equal(await store.oauth.findByUid('Interaction', 'u-1', at(1)), null);
        assert.equal((await store.oauth.findByUserCode('DeviceCode', 'ABCD', at(1)))?.payload, device.payload);
        await store.oauth.destroy('Session', session.key);
        assert.equal(await store.oauth.findByUid('Session', 'u-1', at(1)), null);
      }));

    test('deleting a grant deletes it and every entry of it, and nothing of another grant', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const grant = entry({ kind: 'Grant', key: 'g-a', grantId: 'g-a', accountId: user.id, clientId: 'c' });
        const access = entry({ grantId: 'g-a', accountId: user.id });
        const refresh = entry({ kind: 'RefreshToken', grantId: 'g-a', accountId: user.id });
        const otherAccess = entry({ grantId: 'g-b', accountId: user.id });
        for (const e of [grant, access, refresh, otherAccess]) await store.oauth.upsert(e, at(0));
        await store.oauth.deleteGrant('g-a');
        assert.equal(await store.oauth.find('Grant', 'g-a', at(1)), null);
        assert.equal(await store.oauth.find('AccessToken', access.key, at(1)), null);
        assert.equal(await store.oauth.find('RefreshToken', refresh.key, at(1)), null);
        assert.ok(await store.oauth.find('AccessToken', otherAccess.key, at(1)));
      }));

    test('a credential read returns the token with its account and the API switch, whatever its expiry', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const access = entry({ grantId: 'g-c', accountId: user.id, expiresAt: at(10) });
        await store.oauth.upsert(access, at(0));
        assert.deepEqual(await store.oauth.findCredential('AccessToken', access.key), { payload: access.payload, grantId: 'g-c', user, apiEnabled: true });
        await store.operations.setApiEnabled(false);
        assert.equal((await store.oauth.findCredential('AccessToken', access.key))?.apiEnabled, false);
        assert.equal(await store.oauth.findCredential('RefreshToken', access.key), null);
        assert.equal(await store.oauth.findCredential('AccessToken', 'unknown'), null);
      }));

    test("an account's grants are listed newest first with their client's registration, and record their last use", () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const other = await createUser(store);
        await store.oauth.upsert(entry({ kind: 'Client', key: 'client-1', payload: '{"client_name":"One"}' }), at(0));
        await store.oauth.upsert(entry({ kind: 'Grant', key: 'old', grantId: 'old', accountId: user.id, clientId: 'client-1' }), at(1));
        await store.oauth.upsert(entry({ kind: 'Grant', key: 'new', grantId: 'new', accountId: user.id, clientId: 'gone' }), at(2));
        await store.oauth.upsert(entry({ kind: 'Grant', key: 'expired', grantId: 'expired', accountId: user.id, clientId: 'gone', expiresAt: at(3) }), at(2));
        await store.oauth.upsert(entry({ kind: 'Grant', key: 'theirs', grantId: 'theirs', accountId: other.id, clientId: 'client-1' }), at(2));
        await store.oauth.touchGrant('old', at(7));

        const grants = await store.oauth.listGrants(user.id, at(5));
        assert.deepEqual(
          grants.map((g) => [g.grantId, g.clientId, g.client, g.createdAt, g.lastUsedAt]),
          [
            ['new', 'gone', null, at(2), null],
            ['old', 'client-1', '{"client_name":"One"}', at(1), at(7)],
          ],
        );
      }));

    test('a secret is made once: later calls, and racing ones, get the first stored', () =>
      withStore(async (store) => {
        assert.equal(await store.oauth.secret('keys', () => 'first'), 'first');
        assert.equal(await store.oauth.secret('keys', () => 'second'), 'first');
        const raced = await Promise.all([store.oauth.secret('race', () => 'a'), store.oauth.secret('race', () => 'b')]);
        assert.equal(raced[0], raced[1]);
      }));

    test('purging deletes the expired entries only', () =>
      withStore(async (store) => {
        const expired = entry({ expiresAt: at(10) });
        const live = entry({ expiresAt: at(100) });
        await store.oauth.upsert(expired, at(0));
        await store.oauth.upsert(live, at(0));
        assert.equal(await store.oauth.purgeExpired(at(50)), 1);
        assert.ok(await store.oauth.find('AccessToken', live.key, at(60)));
      }));
  });
}

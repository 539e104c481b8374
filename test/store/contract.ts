import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  type DiagramMeta,
  type DiagramRecord,
  type FolderRecord,
  type ListPosition,
  type Store,
  StoreConflict,
  type TokenRecord,
  type UserRecord,
} from '../../src/store/store.ts';

/** Races are repeated so that a store without the needed locking loses at least one of them. */
const RACE_ROUNDS = 5;

/** Timestamps are ISO strings the caller passes in; `at(i)` is `i` milliseconds after a fixed base. */
const BASE = Date.UTC(2024, 0, 1);
const at = (offsetMs: number): string => new Date(BASE + offsetMs).toISOString();

let emailCounter = 0;
function uniqueEmail(prefix = 'user'): string {
  emailCounter += 1;
  return `${prefix}-${emailCounter}-${randomUUID()}@example.com`;
}

function userRecord(overrides: Partial<UserRecord> = {}): UserRecord {
  return { id: randomUUID(), email: uniqueEmail(), emailVerified: true, quota: 100, createdAt: at(0), ...overrides };
}

function tokenRecord(userId: string, overrides: Partial<TokenRecord> = {}): TokenRecord {
  return {
    id: randomUUID(),
    userId,
    name: 'ci token',
    last4: 'a1b2',
    capabilities: ['read', 'write'],
    createdAt: at(0),
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: null,
    ...overrides,
  };
}

function diagramRecord(ownerId: string, overrides: Partial<DiagramRecord> = {}): DiagramRecord {
  return {
    id: randomUUID(),
    ownerId,
    title: 'Untitled',
    folderId: null,
    workspaceId: null,
    starred: false,
    elementCount: 0,
    createdAt: at(0),
    updatedAt: at(0),
    docUpdatedAt: null,
    deletedAt: null,
    elementsJson: '[]',
    ...overrides,
  };
}

function folderRecord(ownerId: string, overrides: Partial<FolderRecord> = {}): FolderRecord {
  return { id: randomUUID(), ownerId, name: 'Folder', parentId: null, createdAt: at(0), updatedAt: at(0), ...overrides };
}

function metaOf(diagram: DiagramRecord): DiagramMeta {
  const { elementsJson: _elements, ...meta } = diagram;
  return meta;
}

/** The listing order the contract promises: createdAt descending, then id descending. */
function newestFirst(a: ListPosition, b: ListPosition): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  if (a.id !== b.id) return a.id < b.id ? 1 : -1;
  return 0;
}

/**
 * The storage contract: every rule a Store implementation must keep, run against
 * each engine. Each test opens a fresh store and closes it, so no test sees
 * another's rows.
 */
export function defineStoreContract(engineName: string, open: () => Promise<Store>): void {
  async function withStore(body: (store: Store) => Promise<void>): Promise<void> {
    const store = await open();
    try {
      await body(store);
    } finally {
      await store.close();
    }
  }

  /**
   * Opens enough pooled connections that the racing calls that follow start
   * together instead of queueing behind connection setup.
   */
  async function warmUp(store: Store): Promise<void> {
    await Promise.all(Array.from({ length: 8 }, () => store.operations.ping()));
  }

  async function createUser(store: Store, overrides: Partial<UserRecord> = {}): Promise<UserRecord> {
    return store.accounts.create(userRecord(overrides));
  }

  async function createDiagram(store: Store, diagram: DiagramRecord, quota = 1000): Promise<DiagramRecord> {
    assert.equal(await store.diagrams.create(diagram, quota), 'created');
    return diagram;
  }

  describe(`${engineName} store contract`, () => {
    test(`${engineName}: ping resolves`, () =>
      withStore(async (store) => {
        await store.operations.ping();
      }));

    describe('users', () => {
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

      test('findUserByEmail and findUserById return every field as created', () =>
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

      test('setEmailVerified and setQuota change only that user', () =>
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
    });

    describe('web accounts', () => {
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

      test('deleteSessionsOfUser ends every session of that user but the one kept, and no one else\'s', () =>
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

      test('purgeExpired deletes expired sessions and emailed links, and keeps live ones', () =>
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

      test('setDiagramStarred stars and unstars one diagram', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const diagram = await createDiagram(store, diagramRecord(user.id));
          const other = await createDiagram(store, diagramRecord(user.id));
          await store.diagrams.setStarred(diagram.id, true);
          assert.equal((await store.diagrams.find(diagram.id))?.starred, true);
          assert.equal((await store.diagrams.find(other.id))?.starred, false);
          await store.diagrams.setStarred(diagram.id, false);
          assert.equal((await store.diagrams.find(diagram.id))?.starred, false);
        }));
    });

    describe('tokens', () => {
      test('findCredential by hash returns the token and its user', () =>
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

      test('revokeToken sets revokedAt once and a second revoke keeps the first revokedAt', () =>
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

      test("listTokens returns only the user's tokens, newest first", () =>
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

      test('touchToken sets lastUsedAt and nothing else', () =>
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

    describe('settings', () => {
      test('the API is enabled by default and setApiEnabled toggles it', () =>
        withStore(async (store) => {
          assert.equal(await store.operations.isApiEnabled(), true);
          await store.operations.setApiEnabled(false);
          assert.equal(await store.operations.isApiEnabled(), false);
          await store.operations.setApiEnabled(false);
          assert.equal(await store.operations.isApiEnabled(), false);
          await store.operations.setApiEnabled(true);
          assert.equal(await store.operations.isApiEnabled(), true);
        }));
    });

    describe('workspaces', () => {
      test('creating a workspace makes its owner an admin member', () =>
        withStore(async (store) => {
          const owner = await createUser(store);
          const author = await createUser(store);
          const workspace = { id: randomUUID(), name: 'Platform', ownerId: owner.id, createdAt: at(5) };
          assert.deepEqual(await store.sharing.createWorkspace(workspace), workspace);
          assert.deepEqual(await store.sharing.findWorkspace(workspace.id), workspace);
          assert.equal(await store.sharing.findWorkspace(randomUUID()), null);

          const diagram = await createDiagram(store, diagramRecord(author.id));
          const before = await store.diagrams.findMetaForUser(diagram.id, owner.id);
          assert.equal(before?.access.workspaceRole, null);

          await store.sharing.setDiagramWorkspace(diagram.id, workspace.id);
          const found = await store.diagrams.findMetaForUser(diagram.id, owner.id);
          assert.deepEqual(found, {
            diagram: { ...metaOf(diagram), workspaceId: workspace.id },
            access: { ownerId: author.id, shareRole: null, workspaceRole: 'admin' },
          });
          assert.equal((await store.diagrams.findForUser(diagram.id, owner.id))?.access.workspaceRole, 'admin');
        }));

      test('setWorkspaceMember adds a member and a second call replaces the role', () =>
        withStore(async (store) => {
          const owner = await createUser(store);
          const member = await createUser(store);
          const colleague = await createUser(store);
          const outsider = await createUser(store);
          const workspace = await store.sharing.createWorkspace({ id: randomUUID(), name: 'Docs', ownerId: owner.id, createdAt: at(0) });
          const diagram = await createDiagram(store, diagramRecord(owner.id, { workspaceId: workspace.id }));

          await store.sharing.setWorkspaceMember(workspace.id, member.id, 'viewer');
          await store.sharing.setWorkspaceMember(workspace.id, colleague.id, 'editor');
          assert.equal((await store.diagrams.findMetaForUser(diagram.id, member.id))?.access.workspaceRole, 'viewer');

          await store.sharing.setWorkspaceMember(workspace.id, member.id, 'editor');
          assert.equal((await store.diagrams.findMetaForUser(diagram.id, member.id))?.access.workspaceRole, 'editor');
          await store.sharing.setWorkspaceMember(workspace.id, member.id, 'viewer');
          assert.equal((await store.diagrams.findMetaForUser(diagram.id, member.id))?.access.workspaceRole, 'viewer');

          assert.equal((await store.diagrams.findMetaForUser(diagram.id, colleague.id))?.access.workspaceRole, 'editor');
          assert.equal((await store.diagrams.findMetaForUser(diagram.id, owner.id))?.access.workspaceRole, 'admin');
          assert.equal((await store.diagrams.findMetaForUser(diagram.id, outsider.id))?.access.workspaceRole, null);
        }));
    });

    describe('diagrams', () => {
      test('createDiagram returns quota_exceeded at the quota and stores nothing', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const neighbour = await createUser(store);
          // Another owner's diagrams do not count toward this user's quota.
          for (let i = 0; i < 3; i++) await createDiagram(store, diagramRecord(neighbour.id));

          assert.equal(await store.diagrams.create(diagramRecord(user.id, { createdAt: at(1) }), 2), 'created');
          assert.equal(await store.diagrams.create(diagramRecord(user.id, { createdAt: at(2) }), 2), 'created');
          const refused = diagramRecord(user.id, { createdAt: at(3) });
          assert.equal(await store.diagrams.create(refused, 2), 'quota_exceeded');
          assert.equal(await store.diagrams.find(refused.id), null);
          assert.equal(await store.diagrams.create(diagramRecord(user.id), 0), 'quota_exceeded');
          // A raised quota admits one more.
          assert.equal(await store.diagrams.create(diagramRecord(user.id), 3), 'created');
          const listed = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 100 });
          assert.equal(listed.length, 3);
        }));

      test('trashed diagrams do not count toward the quota', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const first = await createDiagram(store, diagramRecord(user.id), 2);
          await createDiagram(store, diagramRecord(user.id), 2);
          assert.equal(await store.diagrams.create(diagramRecord(user.id), 2), 'quota_exceeded');

          await store.diagrams.setTrashed(first.id, true, at(10));
          assert.equal(await store.diagrams.create(diagramRecord(user.id), 2), 'created');
          assert.equal(await store.diagrams.create(diagramRecord(user.id), 2), 'quota_exceeded');
          // A diagram created already trashed does not count either.
          assert.equal(await store.diagrams.create(diagramRecord(user.id, { deletedAt: at(1) }), 3), 'created');
          assert.equal(await store.diagrams.create(diagramRecord(user.id), 3), 'created');
        }));

      test('concurrent createDiagram calls never overshoot the quota', () =>
        withStore(async (store) => {
          await warmUp(store);
          for (let round = 0; round < RACE_ROUNDS; round++) {
            const user = await createUser(store);
            const quota = 3;
            const attempts = Array.from({ length: 8 }, (_, i) => diagramRecord(user.id, { createdAt: at(i) }));
            const outcomes = await Promise.all(attempts.map((d) => store.diagrams.create(d, quota)));
            assert.equal(outcomes.filter((o) => o === 'created').length, quota, `round ${round}: created count`);
            assert.equal(outcomes.filter((o) => o === 'quota_exceeded').length, attempts.length - quota, `round ${round}: refused count`);

            const stored = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 100 });
            const createdIds = attempts.filter((_, i) => outcomes[i] === 'created').map((d) => d.id);
            assert.deepEqual(new Set(stored.map((d) => d.id)), new Set(createdIds), `round ${round}: stored diagrams`);
          }
        }));

      test('findDiagramForUser returns elementsJson byte-identical to what was stored', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          // Key order, whitespace, escapes, non-BMP characters and number spellings must all survive.
          const elementsJson =
            '[ {"type":"text","z":1,"a":0, "text":"caf\u00e9 \ud83d\ude80 \\u00e9 \\n \\"q\\"","x":1.0,"y":-0e0,"w":1E3,' +
            '"big":12345678901234567890,\n\t"nested":{"b":[],"a":{}}} ]';
          const diagram = await createDiagram(store, diagramRecord(user.id, { elementsJson, elementCount: 1, title: 'Ünïcode ✓' }));

          const found = await store.diagrams.findForUser(diagram.id, user.id);
          assert.ok(found);
          assert.equal(found.diagram.elementsJson, elementsJson);
          assert.equal(Buffer.compare(Buffer.from(found.diagram.elementsJson), Buffer.from(elementsJson)), 0);
          assert.deepEqual(found.diagram, diagram);
          assert.deepEqual(await store.diagrams.find(diagram.id), metaOf(diagram));
          assert.equal(await store.diagrams.findForUser(randomUUID(), user.id), null);
          assert.equal(await store.diagrams.findMetaForUser(randomUUID(), user.id), null);
        }));

      test('findDiagramForUser reports the share and workspace roles of the asking user and nulls for a stranger', () =>
        withStore(async (store) => {
          const owner = await createUser(store);
          const sharee = await createUser(store);
          const member = await createUser(store);
          const both = await createUser(store);
          const stranger = await createUser(store);
          const workspace = await store.sharing.createWorkspace({ id: randomUUID(), name: 'Team', ownerId: owner.id, createdAt: at(0) });
          await store.sharing.setWorkspaceMember(workspace.id, member.id, 'editor');
          await store.sharing.setWorkspaceMember(workspace.id, both.id, 'viewer');
          const diagram = await createDiagram(store, diagramRecord(owner.id, { workspaceId: workspace.id, elementsJson: '[{"id":"e1"}]', elementCount: 1 }));
          const elsewhere = await createDiagram(store, diagramRecord(owner.id));
          await store.sharing.shareDiagram(diagram.id, sharee.id, 'viewer');
          await store.sharing.shareDiagram(diagram.id, both.id, 'editor');
          // A share on another diagram is not a share on this one.
          await store.sharing.shareDiagram(elsewhere.id, stranger.id, 'editor');

          const expected = [
            [owner, { shareRole: null, workspaceRole: 'admin' }],
            [sharee, { shareRole: 'viewer', workspaceRole: null }],
            [member, { shareRole: null, workspaceRole: 'editor' }],
            [both, { shareRole: 'editor', workspaceRole: 'viewer' }],
            [stranger, { shareRole: null, workspaceRole: null }],
          ] as const;
          for (const [user, roles] of expected) {
            const full = await store.diagrams.findForUser(diagram.id, user.id);
            assert.deepEqual(full, { diagram, access: { ownerId: owner.id, ...roles } }, `findDiagramForUser as ${user.email}`);
            const meta = await store.diagrams.findMetaForUser(diagram.id, user.id);
            assert.deepEqual(meta, { diagram: metaOf(diagram), access: { ownerId: owner.id, ...roles } }, `findDiagramMetaForUser as ${user.email}`);
          }
          assert.deepEqual((await store.diagrams.findForUser(elsewhere.id, stranger.id))?.access, {
            ownerId: owner.id,
            shareRole: 'editor',
            workspaceRole: null,
          });
        }));

      test('shareDiagram upserts the role', () =>
        withStore(async (store) => {
          const owner = await createUser(store);
          const friend = await createUser(store);
          const diagram = await createDiagram(store, diagramRecord(owner.id));
          await store.sharing.shareDiagram(diagram.id, friend.id, 'viewer');
          assert.equal((await store.diagrams.findMetaForUser(diagram.id, friend.id))?.access.shareRole, 'viewer');
          await store.sharing.shareDiagram(diagram.id, friend.id, 'editor');
          assert.equal((await store.diagrams.findMetaForUser(diagram.id, friend.id))?.access.shareRole, 'editor');
          await store.sharing.shareDiagram(diagram.id, friend.id, 'viewer');
          assert.equal((await store.diagrams.findMetaForUser(diagram.id, friend.id))?.access.shareRole, 'viewer');
        }));

      test('listOwnedDiagrams lists newest first by createdAt then id', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const stranger = await createUser(store);
          // Pairs share a createdAt so the id tie-break decides; insertion order is scrambled.
          const offsets = [3, 0, 5, 1, 3, 4, 0, 2, 5, 1];
          const diagrams = offsets.map((offset) => diagramRecord(user.id, { createdAt: at(offset * 1000) }));
          for (const d of diagrams) await createDiagram(store, d);
          await createDiagram(store, diagramRecord(stranger.id, { createdAt: at(9000) }));

          const listed = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 100 });
          assert.deepEqual(listed, [...diagrams].sort(newestFirst).map(metaOf));
          const limited = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 4 });
          assert.deepEqual(limited, [...diagrams].sort(newestFirst).slice(0, 4).map(metaOf));
        }));

      test('keyset pagination with after has no duplicates or gaps even when diagrams are inserted between pages', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          // Three diagrams per millisecond, so page boundaries fall inside ties.
          const initial = Array.from({ length: 13 }, (_, i) => diagramRecord(user.id, { createdAt: at(1000 + Math.floor(i / 3)) }));
          for (const d of initial) await createDiagram(store, d);
          const olderInserted: DiagramRecord[] = [];

          const seen: string[] = [];
          let after: ListPosition | null = null;
          for (let page = 0; page < 20; page++) {
            const items: DiagramMeta[] = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after, limit: 4 });
            if (items.length === 0) break;
            seen.push(...items.map((d) => d.id));
            const last = items[items.length - 1]!;
            after = { createdAt: last.createdAt, id: last.id };
            // Newer diagrams (ahead of the cursor) must not shift later pages; an older one must still be reached.
            await createDiagram(store, diagramRecord(user.id, { createdAt: at(5000 + page) }));
            if (page === 0) {
              const older = diagramRecord(user.id, { createdAt: at(10) });
              await createDiagram(store, older);
              olderInserted.push(older);
            }
          }

          const expected = [...initial, ...olderInserted].sort(newestFirst).map((d) => d.id);
          assert.equal(new Set(seen).size, seen.length, 'no diagram is listed twice');
          assert.deepEqual(seen, expected);
        }));

      test('listOwnedDiagrams with trashed lists only trashed diagrams, and without it only active ones', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const stranger = await createUser(store);
          const diagrams = Array.from({ length: 5 }, (_, i) => diagramRecord(user.id, { createdAt: at(i) }));
          for (const d of diagrams) await createDiagram(store, d);
          const strangers = await createDiagram(store, diagramRecord(stranger.id));
          await store.diagrams.setTrashed(strangers.id, true, at(50));
          await store.diagrams.setTrashed(diagrams[1]!.id, true, at(100));
          await store.diagrams.setTrashed(diagrams[3]!.id, true, at(101));

          const active = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 100 });
          assert.deepEqual(
            active.map((d) => d.id),
            [diagrams[4]!, diagrams[2]!, diagrams[0]!].map((d) => d.id),
          );
          const trashed = await store.diagrams.listOwned({ ownerId: user.id, trashed: true, after: null, limit: 100 });
          assert.deepEqual(
            trashed.map((d) => [d.id, d.deletedAt]),
            [
              [diagrams[3]!.id, at(101)],
              [diagrams[1]!.id, at(100)],
            ],
          );
        }));

      test('listOwnedDiagrams narrows by folder, star and title substring ignoring case, combined and paged', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const stranger = await createUser(store);
          const folder = await store.folders.create(folderRecord(user.id));
          const make = (title: string, i: number, extra: Partial<DiagramRecord> = {}) =>
            createDiagram(store, diagramRecord(user.id, { title, createdAt: at(i), ...extra }));
          const payments = await make('Payments flow', 1, { folderId: folder.id });
          const refunds = await make('PAYMENT refunds', 2, { starred: true });
          const filedStarred = await make('payment retries', 3, { folderId: folder.id, starred: true });
          await make('Login', 4, { folderId: folder.id });
          const percent = await make('100% done_ok', 5);
          await make('100 percent', 6);
          await createDiagram(store, diagramRecord(stranger.id, { title: 'Payments', folderId: folder.id, starred: true }));
          const trashedPayment = await make('payment (old)', 7);
          await store.diagrams.setTrashed(trashedPayment.id, true, at(100));

          const list = async (filters: Partial<Parameters<Store['diagrams']['listOwned']>[0]>) =>
            (await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 100, ...filters })).map((d) => d.title);
          assert.deepEqual(await list({ titleContains: 'pAyMeNt' }), [filedStarred.title, refunds.title, payments.title]);
          assert.deepEqual(await list({ folderId: folder.id }), ['Login', filedStarred.title, payments.title]);
          assert.deepEqual(await list({ starredOnly: true }), [filedStarred.title, refunds.title]);
          assert.deepEqual(await list({ titleContains: 'payment', folderId: folder.id, starredOnly: true }), [filedStarred.title]);
          assert.deepEqual(await list({ titleContains: '%' }), [percent.title], '% is a literal character, not a wildcard');
          assert.deepEqual(await list({ titleContains: 'e_o' }), [percent.title], '_ is a literal character, not a wildcard');
          assert.deepEqual(await list({ titleContains: 'payment', trashed: true }), [trashedPayment.title]);

          const first = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 2, titleContains: 'payment' });
          const last = first.at(-1)!;
          const rest = await store.diagrams.listOwned({
            ownerId: user.id,
            trashed: false,
            after: { createdAt: last.createdAt, id: last.id },
            limit: 2,
            titleContains: 'payment',
          });
          assert.deepEqual([...first, ...rest].map((d) => d.id), [filedStarred.id, refunds.id, payments.id]);
        }));

      test('countOwnedDiagrams counts active, starred, trashed and active per folder, for that owner only', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const stranger = await createUser(store);
          const [a, b] = [await store.folders.create(folderRecord(user.id)), await store.folders.create(folderRecord(user.id))];
          await createDiagram(store, diagramRecord(user.id, { folderId: a.id, starred: true }));
          await createDiagram(store, diagramRecord(user.id, { folderId: a.id }));
          await createDiagram(store, diagramRecord(user.id, { starred: true }));
          const trashed = await createDiagram(store, diagramRecord(user.id, { folderId: b.id, starred: true }));
          await store.diagrams.setTrashed(trashed.id, true, at(10));
          await createDiagram(store, diagramRecord(stranger.id, { folderId: a.id, starred: true }));

          assert.deepEqual(await store.diagrams.countOwned(user.id), { active: 3, starred: 2, trashed: 1, byFolder: { [a.id]: 2 } });
          const nobody = await createUser(store);
          assert.deepEqual(await store.diagrams.countOwned(nobody.id), { active: 0, starred: 0, trashed: 0, byFolder: {} });
        }));

      test('updateDiagramMeta changes only the fields given', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const folder = await store.folders.create(folderRecord(user.id));
          const other = await store.folders.create(folderRecord(user.id));
          const diagram = await createDiagram(
            store,
            diagramRecord(user.id, {
              title: 'Before',
              folderId: folder.id,
              starred: true,
              elementCount: 2,
              elementsJson: '[{"id":"a"},{"id":"b"}]',
              docUpdatedAt: at(3),
            }),
          );

          const renamed = await store.diagrams.updateMeta(diagram.id, { title: 'After', updatedAt: at(10) });
          let expected: DiagramRecord = { ...diagram, title: 'After', updatedAt: at(10) };
          assert.deepEqual(renamed, metaOf(expected));

          const moved = await store.diagrams.updateMeta(diagram.id, { folderId: other.id, updatedAt: at(20) });
          expected = { ...expected, folderId: other.id, updatedAt: at(20) };
          assert.deepEqual(moved, metaOf(expected));

          const unfiled = await store.diagrams.updateMeta(diagram.id, { folderId: null, updatedAt: at(30) });
          expected = { ...expected, folderId: null, updatedAt: at(30) };
          assert.deepEqual(unfiled, metaOf(expected));

          const both = await store.diagrams.updateMeta(diagram.id, { title: 'Both', folderId: folder.id, updatedAt: at(40) });
          expected = { ...expected, title: 'Both', folderId: folder.id, updatedAt: at(40) };
          assert.deepEqual(both, metaOf(expected));

          assert.deepEqual((await store.diagrams.findForUser(diagram.id, user.id))?.diagram, expected);
          assert.equal(await store.diagrams.updateMeta(randomUUID(), { title: 'Ghost', updatedAt: at(50) }), null);
        }));

      test('setDiagramTrashed is idempotent and keeps the first deletedAt', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const diagram = await createDiagram(store, diagramRecord(user.id));
          await store.diagrams.setTrashed(diagram.id, true, at(100));
          assert.equal((await store.diagrams.find(diagram.id))?.deletedAt, at(100));
          await store.diagrams.setTrashed(diagram.id, true, at(200));
          const after = await store.diagrams.find(diagram.id);
          assert.equal(after?.deletedAt, at(100));
          const trashed = await store.diagrams.listOwned({ ownerId: user.id, trashed: true, after: null, limit: 100 });
          assert.deepEqual(trashed.map((d) => d.id), [diagram.id]);
        }));

      test('restoring a trashed diagram clears deletedAt and restoring an active one changes nothing', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const diagram = await createDiagram(store, diagramRecord(user.id));
          const active = await createDiagram(store, diagramRecord(user.id));
          await store.diagrams.setTrashed(diagram.id, true, at(100));
          await store.diagrams.setTrashed(diagram.id, false, at(200));
          assert.equal((await store.diagrams.find(diagram.id))?.deletedAt, null);
          const listed = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 100 });
          assert.deepEqual(new Set(listed.map((d) => d.id)), new Set([diagram.id, active.id]));

          await store.diagrams.setTrashed(active.id, false, at(300));
          assert.deepEqual(await store.diagrams.find(active.id), metaOf(active));
          // Trashing again after a restore records the new time.
          await store.diagrams.setTrashed(diagram.id, true, at(400));
          assert.equal((await store.diagrams.find(diagram.id))?.deletedAt, at(400));
        }));
    });

    describe('folders', () => {
      test('createFolder, findFolder and listFolders round-trip every field, listed in creation order', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const stranger = await createUser(store);
          // Names run backwards so the order cannot come from sorting by name.
          const top = await store.folders.create(folderRecord(user.id, { name: 'Zeta', createdAt: at(1), updatedAt: at(1) }));
          const child = await store.folders.create(folderRecord(user.id, { name: 'Mu', parentId: top.id, createdAt: at(2), updatedAt: at(5) }));
          const last = await store.folders.create(folderRecord(user.id, { name: 'Alpha', createdAt: at(3), updatedAt: at(3) }));
          await store.folders.create(folderRecord(stranger.id, { createdAt: at(0) }));

          assert.deepEqual(await store.folders.list(user.id), [top, child, last]);
          assert.deepEqual(await store.folders.find(child.id), child);
          assert.equal(await store.folders.find(randomUUID()), null);
          assert.deepEqual(await store.folders.list(randomUUID()), []);
        }));

      test('renameFolder changes the name and updatedAt only', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const parent = await store.folders.create(folderRecord(user.id, { name: 'Parent' }));
          const folder = await store.folders.create(folderRecord(user.id, { name: 'Old', parentId: parent.id, createdAt: at(1), updatedAt: at(1) }));
          const renamed = await store.folders.rename(folder.id, 'New', at(50));
          assert.deepEqual(renamed, { ...folder, name: 'New', updatedAt: at(50) });
          assert.deepEqual(await store.folders.find(folder.id), renamed);
          assert.deepEqual(await store.folders.find(parent.id), parent);
          assert.equal(await store.folders.rename(randomUUID(), 'Ghost', at(60)), null);
        }));

      test('deleteFolder unfiles its diagrams and moves its subfolders to its parent', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const top = await store.folders.create(folderRecord(user.id, { name: 'top', createdAt: at(1) }));
          const middle = await store.folders.create(folderRecord(user.id, { name: 'middle', parentId: top.id, createdAt: at(2) }));
          const leafA = await store.folders.create(folderRecord(user.id, { name: 'leaf a', parentId: middle.id, createdAt: at(3) }));
          const leafB = await store.folders.create(folderRecord(user.id, { name: 'leaf b', parentId: middle.id, createdAt: at(4) }));
          const inMiddle = await createDiagram(store, diagramRecord(user.id, { folderId: middle.id }));
          const inLeaf = await createDiagram(store, diagramRecord(user.id, { folderId: leafA.id }));
          const inTop = await createDiagram(store, diagramRecord(user.id, { folderId: top.id }));

          await store.folders.delete(middle.id, at(100));
          assert.equal(await store.folders.find(middle.id), null);
          assert.equal((await store.folders.find(leafA.id))?.parentId, top.id);
          assert.equal((await store.folders.find(leafB.id))?.parentId, top.id);
          assert.equal((await store.diagrams.find(inMiddle.id))?.folderId, null);
          assert.equal((await store.diagrams.find(inLeaf.id))?.folderId, leafA.id);
          assert.equal((await store.diagrams.find(inTop.id))?.folderId, top.id);
          assert.deepEqual(
            (await store.folders.list(user.id)).map((f) => f.id),
            [top.id, leafA.id, leafB.id],
          );

          // Deleting a top-level folder moves its subfolders to the top level.
          await store.folders.delete(top.id, at(200));
          assert.equal((await store.folders.find(leafA.id))?.parentId, null);
          assert.equal((await store.folders.find(leafB.id))?.parentId, null);
          assert.equal((await store.diagrams.find(inTop.id))?.folderId, null);
          assert.equal((await store.diagrams.find(inLeaf.id))?.folderId, leafA.id);
        }));
    });

    describe('public links', () => {
      test('updatePublicLink creates the link with version 1 and the given slug', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const diagram = await createDiagram(store, diagramRecord(user.id));
          const plain = await createDiagram(store, diagramRecord(user.id));
          assert.equal(await store.publicLinks.find(diagram.id), null);

          const created = await store.publicLinks.update(diagram.id, { enabled: true, passwordHash: 'pw-hash' }, 'slug-first', at(10));
          const expected = { diagramId: diagram.id, slug: 'slug-first', enabled: true, passwordHash: 'pw-hash', version: 1, updatedAt: at(10) };
          assert.deepEqual(created, expected);
          assert.deepEqual(await store.publicLinks.find(diagram.id), expected);

          const withoutPassword = await store.publicLinks.update(plain.id, { enabled: false }, 'slug-plain', at(20));
          assert.deepEqual(withoutPassword, { diagramId: plain.id, slug: 'slug-plain', enabled: false, passwordHash: null, version: 1, updatedAt: at(20) });
        }));

      test('each updatePublicLink call increments the version by one and keeps the first slug', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const diagram = await createDiagram(store, diagramRecord(user.id));
          await store.publicLinks.update(diagram.id, { enabled: true }, 'slug-kept', at(1));
          for (let call = 2; call <= 5; call++) {
            const link = await store.publicLinks.update(diagram.id, { enabled: call % 2 === 0 }, `slug-ignored-${call}`, at(call));
            assert.deepEqual(link, {
              diagramId: diagram.id,
              slug: 'slug-kept',
              enabled: call % 2 === 0,
              passwordHash: null,
              version: call,
              updatedAt: at(call),
            });
          }
          assert.equal((await store.publicLinks.find(diagram.id))?.version, 5);
          assert.equal(await store.publicLinks.findBySlug('slug-ignored-3'), null);
        }));

      test('updatePublicLink leaves the password hash alone when passwordHash is undefined and clears it with null', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const diagram = await createDiagram(store, diagramRecord(user.id));
          await store.publicLinks.update(diagram.id, { enabled: true, passwordHash: 'hash-1' }, 'slug-pw', at(1));
          const kept = await store.publicLinks.update(diagram.id, { enabled: false }, 'slug-pw', at(2));
          assert.equal(kept.passwordHash, 'hash-1');
          assert.equal(kept.enabled, false);
          const replaced = await store.publicLinks.update(diagram.id, { enabled: true, passwordHash: 'hash-2' }, 'slug-pw', at(3));
          assert.equal(replaced.passwordHash, 'hash-2');
          const cleared = await store.publicLinks.update(diagram.id, { enabled: true, passwordHash: null }, 'slug-pw', at(4));
          assert.equal(cleared.passwordHash, null);
          const stillCleared = await store.publicLinks.update(diagram.id, { enabled: true }, 'slug-pw', at(5));
          assert.equal(stillCleared.passwordHash, null);
          assert.deepEqual(await store.publicLinks.find(diagram.id), stillCleared);
          assert.equal(stillCleared.version, 5);
        }));

      for (const prior of [0, 2]) {
        test(`concurrent updatePublicLink calls get distinct versions and end at ${prior} + 5`, () =>
          withStore(async (store) => {
            await warmUp(store);
            const user = await createUser(store);
            for (let round = 0; round < RACE_ROUNDS; round++) {
              const diagram = await createDiagram(store, diagramRecord(user.id));
              for (let i = 1; i <= prior; i++) await store.publicLinks.update(diagram.id, { enabled: true }, `slug-race-${round}`, at(i));

              const results = await Promise.all(
                Array.from({ length: 5 }, (_, i) => store.publicLinks.update(diagram.id, { enabled: true }, `slug-race-${round}-${i}`, at(100 + i))),
              );
              const versions = results.map((r) => r.version).sort((a, b) => a - b);
              assert.deepEqual(versions, [prior + 1, prior + 2, prior + 3, prior + 4, prior + 5], `round ${round}: versions`);
              const final = await store.publicLinks.find(diagram.id);
              assert.equal(final?.version, prior + 5, `round ${round}: final version`);
              assert.equal(new Set(results.map((r) => r.slug)).size, 1, `round ${round}: every caller sees the one slug`);
              assert.equal(final?.slug, results[0]!.slug, `round ${round}: stored slug`);
            }
          }));
      }

      test('findPublicLinkBySlug returns the link and its diagram', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const elementsJson = '[{"id":"n1","type":"rectangle", "label":"\u00fc"}]';
          const diagram = await createDiagram(store, diagramRecord(user.id, { title: 'Published', elementsJson, elementCount: 1, updatedAt: at(3) }));
          const other = await createDiagram(store, diagramRecord(user.id));
          const link = await store.publicLinks.update(diagram.id, { enabled: true, passwordHash: 'h' }, 'slug-find', at(7));
          await store.publicLinks.update(other.id, { enabled: true }, 'slug-other', at(8));

          const found = await store.publicLinks.findBySlug('slug-find');
          // Both tables have an updated_at column; the link must carry its own.
          assert.equal(found?.link.updatedAt, at(7), "the link's own updatedAt, not the diagram's");
          assert.deepEqual(found, { link, diagram });
          assert.equal(found?.diagram.elementsJson, elementsJson);
          assert.equal((await store.publicLinks.findBySlug('slug-other'))?.diagram.id, other.id);
          assert.equal(await store.publicLinks.findBySlug('slug-missing'), null);
        }));
    });

    describe('content writes', () => {
      const write = (id: string, expected: string | null, ids: string[], now: Date) => ({
        id,
        elementsJson: JSON.stringify(ids.map((e) => ({ id: e, type: 'rectangle' }))),
        elementCount: ids.length,
        elementIds: new Set(ids),
        expectedDocUpdatedAt: expected,
        now,
      });

      test('writeContent replaces the elements and gives every write a distinct, increasing docUpdatedAt, even in one millisecond', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const diagram = await createDiagram(store, diagramRecord(user.id, { docUpdatedAt: at(5) }));
          const now = new Date(at(10));
          const revisions: string[] = [];
          for (let i = 0; i < 5; i++) {
            const result = await store.diagrams.writeContent(write(diagram.id, null, [`e${i}`], now));
            assert.equal(result.status, 'written');
            revisions.push((result as { docUpdatedAt: string }).docUpdatedAt);
          }
          assert.deepEqual(revisions, [...revisions].sort());
          assert.equal(new Set(revisions).size, 5);
          const read = await store.diagrams.findForUser(diagram.id, user.id);
          assert.equal(read?.diagram.elementsJson, '[{"id":"e4","type":"rectangle"}]');
          assert.equal(read?.diagram.docUpdatedAt, revisions[4]);
          assert.equal(read?.diagram.elementCount, 1);
        }));

      test('writeContent with a stale expected revision writes nothing', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const diagram = await createDiagram(store, diagramRecord(user.id, { docUpdatedAt: at(5), elementsJson: '[]' }));
          const stale = await store.diagrams.writeContent(write(diagram.id, at(4), ['x'], new Date(at(10))));
          assert.deepEqual(stale, { status: 'stale', docUpdatedAt: at(5) });
          assert.equal((await store.diagrams.findForUser(diagram.id, user.id))?.diagram.elementsJson, '[]');
          assert.deepEqual(await store.diagrams.writeContent(write(randomUUID(), null, [], new Date(at(10)))), { status: 'missing' });
        }));

      test('of concurrent writes expecting the same revision exactly one is written', () =>
        withStore(async (store) => {
          await warmUp(store);
          const user = await createUser(store);
          const diagram = await createDiagram(store, diagramRecord(user.id, { docUpdatedAt: at(5) }));
          const results = await Promise.all(Array.from({ length: 8 }, (_, i) => store.diagrams.writeContent(write(diagram.id, at(5), [`w${i}`], new Date(at(10))))));
          assert.equal(results.filter((r) => r.status === 'written').length, 1);
          assert.equal(results.filter((r) => r.status === 'stale').length, 7);
        }));

      test('comments on elements a write removes are resolved once and counted', () =>
        withStore(async (store) => {
          const user = await createUser(store);
          const diagram = await createDiagram(store, diagramRecord(user.id, { docUpdatedAt: at(5) }));
          const comment = (elementId: string | null, n: number) => ({
            id: randomUUID(),
            diagramId: diagram.id,
            elementId,
            body: `c${n}`,
            authorId: user.id,
            createdAt: at(n),
            resolved: false,
            resolvedReason: null,
          });
          await store.comments.add(comment('keep', 1));
          await store.comments.add(comment('gone', 2));
          await store.comments.add(comment(null, 3));
          const first = await store.diagrams.writeContent(write(diagram.id, null, ['keep'], new Date(at(10))));
          assert.equal(first.status === 'written' && first.orphanedComments, 1);
          const second = await store.diagrams.writeContent(write(diagram.id, null, [], new Date(at(11))));
          assert.equal(second.status === 'written' && second.orphanedComments, 1);
          const listed = await store.comments.list(diagram.id);
          assert.deepEqual(
            listed.map((c) => [c.body, c.resolved, c.resolvedReason]),
            [
              ['c1', true, 'element_removed'],
              ['c2', true, 'element_removed'],
              ['c3', false, null],
            ],
          );
        }));
    });
  });
}

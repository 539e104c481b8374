import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { BASELINE_REVISION, changeRecording } from '../../../src/app/history/recording.ts';
import type { ContentRevision, DiagramMeta, DiagramRecord, FolderRecord, ListPosition, RevisionInput, Store, TokenRecord, UserRecord } from '../../../src/store/store.ts';

/** Races are repeated so that a store without the needed locking loses at least one of them. */
export const RACE_ROUNDS = 5;

/** Timestamps are ISO strings the caller passes in; `at(i)` is `i` milliseconds after a fixed base. */
const BASE = Date.UTC(2024, 0, 1);
export const at = (offsetMs: number): string => new Date(BASE + offsetMs).toISOString();

let emailCounter = 0;
export function uniqueEmail(prefix = 'user'): string {
  emailCounter += 1;
  return `${prefix}-${emailCounter}-${randomUUID()}@example.com`;
}

export function userRecord(overrides: Partial<UserRecord> = {}): UserRecord {
  return { id: randomUUID(), email: uniqueEmail(), emailVerified: true, quota: 100, createdAt: at(0), ...overrides };
}

export function tokenRecord(userId: string, overrides: Partial<TokenRecord> = {}): TokenRecord {
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

export function diagramRecord(ownerId: string, overrides: Partial<DiagramRecord> = {}): DiagramRecord {
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

export function folderRecord(ownerId: string, overrides: Partial<FolderRecord> = {}): FolderRecord {
  return { id: randomUUID(), ownerId, name: 'Folder', parentId: null, createdAt: at(0), updatedAt: at(0), ...overrides };
}

export function metaOf(diagram: DiagramRecord): DiagramMeta {
  const { elementsJson: _elements, ...meta } = diagram;
  return meta;
}

/** The listing order the contract promises: createdAt descending, then id descending. */
export function newestFirst(a: ListPosition, b: ListPosition): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  if (a.id !== b.id) return a.id < b.id ? 1 : -1;
  return 0;
}

/** The revision a test's content write records: a whole-scene patch by nobody in particular. */
const TEST_REVISION: ContentRevision = { kind: 'patch', userId: null, via: null, summary: 'changed by a test', delta: null, baseline: BASELINE_REVISION };
/** The first revision of a diagram a test creates. */
export const TEST_CREATED: RevisionInput = { kind: 'create', userId: null, via: null, summary: 'created by a test' };
/** How a test's renames and moves are recorded: as the service words them, made by nobody in particular. */
export const TEST_AUTHOR = changeRecording({ userId: null, via: null });

/** A content write of elements with these ids (one rectangle each). */
export const contentWrite = (id: string, expected: string | null, ids: string[], now: Date) => ({
  revision: TEST_REVISION,
  id,
  elementsJson: JSON.stringify(ids.map((e) => ({ id: e, type: 'rectangle' }))),
  elementCount: ids.length,
  elementIds: new Set(ids),
  expectedDocUpdatedAt: expected,
  now,
});

/** What every part of the contract gets: the engine's name and a way to run a test on a fresh store. */
export interface ContractContext {
  engineName: string;
  /** Opens a fresh store, runs `body` on it and closes it, so no test sees another's rows. */
  withStore(body: (store: Store) => Promise<void>): Promise<void>;
}

export function contractContext(engineName: string, open: () => Promise<Store>): ContractContext {
  return {
    engineName,
    async withStore(body) {
      const store = await open();
      try {
        await body(store);
      } finally {
        await store.close();
      }
    },
  };
}

/**
 * Opens enough pooled connections that the racing calls that follow start
 * together instead of queueing behind connection setup.
 */
export async function warmUp(store: Store): Promise<void> {
  await Promise.all(Array.from({ length: 8 }, () => store.operations.ping()));
}

export async function createUser(store: Store, overrides: Partial<UserRecord> = {}): Promise<UserRecord> {
  return store.accounts.create(userRecord(overrides));
}

export async function createDiagram(store: Store, diagram: DiagramRecord, quota = 1000): Promise<DiagramRecord> {
  assert.equal(await store.diagrams.create(diagram, quota, TEST_CREATED), 'created');
  return diagram;
}

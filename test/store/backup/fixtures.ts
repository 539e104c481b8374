import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Engine } from '../../../src/store/migrations.ts';
import { BACKUP_TABLES } from '../../../src/store/backup/tables.ts';
import type { StoreLocation } from '../../../src/store/open.ts';
import { freshPostgresDatabase, skipWithoutPostgres } from '../../helpers/postgres.ts';

export interface EngineUnderTest {
  name: Engine;
  skip: string | false;
  /** A new, empty database (a new DATA_DIR for SQLite, a new database on the test cluster for PostgreSQL). */
  freshLocation(): Promise<StoreLocation>;
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-backup-'));
/** A new folder under the scratch folder, made again if a file sharing this module's process removed it when it ended. */
export function scratchDir(): string {
  fs.mkdirSync(scratch, { recursive: true });
  return fs.mkdtempSync(path.join(scratch, 'd-'));
}
export const removeScratch = (): void => fs.rmSync(scratch, { recursive: true, force: true });

export const ENGINES: EngineUnderTest[] = [
  { name: 'sqlite', skip: false, freshLocation: async () => ({ dataDir: scratchDir(), databaseUrl: undefined }) },
  { name: 'postgres', skip: skipWithoutPostgres, freshLocation: async () => ({ dataDir: scratchDir(), databaseUrl: await freshPostgresDatabase() }) },
];

/** Every byte value, twice, and a lone zero: what a binary column must give back unchanged. */
export const EVERY_BYTE = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.from(Array.from({ length: 256 }, (_, i) => 255 - i)), Buffer.from([0])]);

/**
 * Representative rows in every backed-up table, with what tends to break a
 * copy: non-ASCII text, quotes and newlines, empty strings, nulls, large
 * integers, binary payloads, and a folder stored before the parent it names.
 */
export async function seedEveryTable(db: Kysely<any>): Promise<void> {
  const ada = randomUUID();
  const bob = randomUUID();
  const users = [
    { id: ada, email: 'ada@example.com', email_verified: 1, quota: 2_147_483_647, created_at: '2024-01-01T00:00:00.000Z', password_hash: 'scrypt$16384$8$1$c2FsdA$aGFzaA', quota_earned: 4 },
    { id: bob, email: 'bøb+tag@exämple.com', email_verified: 0, quota: 3, created_at: '2024-01-02T00:00:00.000Z', password_hash: null, quota_earned: 0 },
  ];
  await db.insertInto('users').values(users).execute();
  const workspace = randomUUID();
  await db.insertInto('workspaces').values({ id: workspace, name: 'Platform "core" — 平台', owner_id: ada, created_at: '2024-01-03T00:00:00.000Z' }).execute();
  await db.insertInto('workspace_members').values({ workspace_id: workspace, user_id: bob, role: 'editor', joined_at: '2024-01-04T00:00:00.000Z' }).execute();
  // A child folder stored a batch's length (of a restore's inserts) before the parent it names: in SQLite's
  // row order certainly; PostgreSQL's heap order is its own, so there it may or may not come first.
  const child = randomUUID();
  const parent = randomUUID();
  const folder = (id: string, name: string) => ({ id, owner_id: ada, name, parent_id: null, created_at: '2024-01-05T00:00:00.000Z', updated_at: '2024-01-05T00:00:00.000Z' });
  await db.insertInto('folders').values(folder(child, 'child')).execute();
  await db.insertInto('folders').values(Array.from({ length: 600 }, (_, i) => folder(randomUUID(), `filler ${i}`))).execute();
  await db.insertInto('folders').values(folder(parent, 'parent')).execute();
  await db.updateTable('folders').set({ parent_id: parent }).where('id', '=', child).execute();
  // PostgreSQL stores an updated row anew: touch the others after it, so that the child tends to stay first.
  await db.updateTable('folders').set({ updated_at: '2024-01-05T00:00:01.000Z' }).where('name', 'like', 'filler %').execute();
  await db.updateTable('folders').set({ updated_at: '2024-01-05T00:00:01.000Z' }).where('id', '=', parent).execute();
  const elements = JSON.stringify([{ id: 'a', type: 'text', text: 'line one\nline "two" 🙂 \\ \u2028', x: 1.5, y: -0 }]);
  const first = randomUUID();
  const second = randomUUID();
  await db.insertInto('diagrams').values([
    { id: first, owner_id: ada, title: 'Ünïcode “title”', title_key: 'unicode "title"', folder_id: child, workspace_id: workspace, starred: 1, elements, element_count: 1, created_at: '2024-01-06T00:00:00.000Z', updated_at: '2024-01-07T00:00:00.000Z', doc_updated_at: '2024-01-07T00:00:00.000Z', deleted_at: null },
    { id: second, owner_id: bob, title: '', title_key: '', folder_id: null, workspace_id: null, starred: 0, elements: '[]', element_count: 0, created_at: '2024-01-06T00:00:00.000Z', updated_at: '2024-01-06T00:00:00.000Z', doc_updated_at: null, deleted_at: '2024-02-01T00:00:00.000Z' },
  ]).execute();
  await db.insertInto('diagram_shares').values({ diagram_id: first, user_id: bob, role: 'viewer', created_at: '2024-01-08T00:00:00.000Z' }).execute();
  await db.insertInto('invitations').values({ id: randomUUID(), email: 'new@example.com', kind: 'workspace', target_id: workspace, role: 'admin', inviter_id: ada, created_at: '2024-01-09T00:00:00.000Z', expires_at: '2024-02-09T00:00:00.000Z', accepted_at: null }).execute();
  await db.insertInto('public_links').values({ diagram_id: first, slug: 'p-Abc_123', enabled: 1, password_hash: 'scrypt$x', version: 7, updated_at: '2024-01-10T00:00:00.000Z' }).execute();
  await db.insertInto('comments').values({ id: randomUUID(), diagram_id: first, element_id: 'a', body: 'Looks <b>good</b> & fine', author_id: bob, created_at: '2024-01-11T00:00:00.000Z', resolved: 1, resolved_reason: 'element_removed' }).execute();
  const revision = { diagram_id: first, at: '2024-01-06T00:00:00.000Z', user_id: ada, via: JSON.stringify({ kind: 'web', name: 'web' }), element_count: 1, summary: 'created', detail: null, doc_updated_at: '2024-01-06T00:00:00.000Z', chain_length: 0, chain_bytes: 0, snapshot_bytes: EVERY_BYTE.length };
  await db.insertInto('revisions').values([
    { ...revision, seq: 1, kind: 'create', encoding: 'snapshot', base_seq: 1, payload: EVERY_BYTE },
    { ...revision, seq: 2, kind: 'edit', encoding: 'delta', base_seq: 1, payload: Buffer.alloc(0), user_id: null, via: null },
    { ...revision, seq: 3, kind: 'rename', encoding: null, base_seq: null, chain_length: null, chain_bytes: null, snapshot_bytes: null, payload: null, detail: JSON.stringify({ title: { from: 'a', to: 'b' } }) },
  ]).execute();
  await db.insertInto('tokens').values({ id: randomUUID(), user_id: ada, name: 'ci', token_hash: 'f'.repeat(64), last4: 'wxyz', capabilities: 'read,write', created_at: '2024-01-12T00:00:00.000Z', expires_at: null, revoked_at: '2024-01-13T00:00:00.000Z', last_used_at: null }).execute();
  await db.insertInto('sessions').values({ id_hash: 'a'.repeat(64), user_id: bob, csrf_token: 'csrf', created_at: '2024-01-14T00:00:00.000Z', expires_at: '2024-02-14T00:00:00.000Z' }).execute();
  await db.insertInto('email_tokens').values({ token_hash: 'b'.repeat(64), user_id: bob, purpose: 'verify', created_at: '2024-01-15T00:00:00.000Z', expires_at: '2024-01-16T00:00:00.000Z', used_at: null }).execute();
  await db.insertInto('oauth_entries').values([
    { kind: 'AccessToken', key: 'c'.repeat(43), payload: JSON.stringify({ accountId: ada, scope: 'read' }), grant_id: 'g1', account_id: ada, client_id: 'client', uid: null, user_code: null, expires_at: '2024-01-17T00:00:00.000Z', consumed_at: 1_705_000_000_123, created_at: '2024-01-16T00:00:00.000Z', last_used_at: null },
    { kind: 'Client', key: 'client', payload: '{}', grant_id: null, account_id: null, client_id: null, uid: null, user_code: null, expires_at: null, consumed_at: null, created_at: '2024-01-16T00:00:00.000Z', last_used_at: '2024-01-16T00:00:01.000Z' },
  ]).execute();
  await db.insertInto('settings').values([{ key: 'api_enabled', value: '0' }, { key: 'oauth:keys', value: JSON.stringify({ keys: [{ kty: 'RSA', n: 'x'.repeat(300) }] }) }]).execute();
}

/** Columns PostgreSQL stores as bigint, which its driver reads as text. */
async function bigintColumns(db: Kysely<any>, engine: Engine): Promise<Set<string>> {
  if (engine !== 'postgres') return new Set();
  const result = await sql<{ column: string }>`select table_name || '.' || column_name as column from information_schema.columns where table_schema = current_schema() and data_type = 'bigint'`.execute(db);
  return new Set(result.rows.map((r) => r.column));
}

/** Every backed-up table's rows, sorted by key, with binary values as hex: comparable across databases and engines. */
export async function tableContents(db: Kysely<any>, engine: Engine): Promise<Record<string, unknown[]>> {
  const bigints = await bigintColumns(db, engine);
  const contents: Record<string, unknown[]> = {};
  for (const table of BACKUP_TABLES) {
    const rows = await db.selectFrom(table.name).selectAll().execute();
    const normalised = rows.map((row) =>
      Object.fromEntries(
        Object.entries(row)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([column, value]) => {
            if (Buffer.isBuffer(value)) return [column, `hex:${value.toString('hex')}`];
            if (bigints.has(`${table.name}.${column}`) && value !== null) return [column, Number(value)];
            return [column, value];
          }),
      ),
    );
    const keyOf = (row: Record<string, unknown>) => JSON.stringify(table.key.map((k) => row[k]));
    contents[table.name] = normalised.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  }
  return contents;
}

export async function rowCount(db: Kysely<any>): Promise<number> {
  let total = 0;
  for (const table of BACKUP_TABLES) {
    const present = await db.selectFrom(table.name).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst().catch(() => undefined);
    total += Number(present?.n ?? 0);
  }
  return total;
}

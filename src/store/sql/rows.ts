import type { Selectable } from 'kysely';
import type { UserRecord } from '../accounts.ts';
import type { DiagramMeta } from '../diagrams.ts';
import type { DiagramsTable, UsersTable } from '../schema.ts';

/** The quota column holds this for an account without a diagram quota (UserRecord.quota Infinity). */
const UNLIMITED_QUOTA = -1;

const quotaFromColumn = (value: number | string): number => (Number(value) === UNLIMITED_QUOTA ? Infinity : Number(value));
export const quotaToColumn = (quota: number): number => (quota === Infinity ? UNLIMITED_QUOTA : quota);

/** Row mappers more than one aggregate reads with. */
export const toUser = (r: Omit<Selectable<UsersTable>, 'password_hash' | 'quota_earned'>): UserRecord => ({
  id: r.id,
  email: r.email,
  emailVerified: r.email_verified === 1,
  quota: quotaFromColumn(r.quota),
  createdAt: r.created_at,
});

type MetaRow = Omit<Selectable<DiagramsTable>, 'elements' | 'title_key'>;
export const toMeta = (r: MetaRow): DiagramMeta => ({
  id: r.id,
  ownerId: r.owner_id,
  title: r.title,
  folderId: r.folder_id,
  workspaceId: r.workspace_id,
  starred: r.starred === 1,
  elementCount: Number(r.element_count),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  docUpdatedAt: r.doc_updated_at,
  deletedAt: r.deleted_at,
});

export const META_COLUMNS = [
  'd.id',
  'd.owner_id',
  'd.title',
  'd.folder_id',
  'd.workspace_id',
  'd.starred',
  'd.element_count',
  'd.created_at',
  'd.updated_at',
  'd.doc_updated_at',
  'd.deleted_at',
] as const;

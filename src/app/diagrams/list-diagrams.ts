import type { DiagramMeta, FolderRecord } from '../../store/store.ts';
import { folderFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';

export interface DiagramListQuery {
  /** The trash instead of the active diagrams. */
  trashed: boolean;
  /** A nextCursor from the previous page, or null for the first. */
  cursor: string | null;
  limit: number;
  /** Only diagrams filed directly in this folder (the caller's own; any other is not_found); null: only those in no folder. */
  folderId?: string | null;
  /** Only starred diagrams (true) or only the others (false). */
  starred?: boolean;
  /** Only titles containing this text, ignoring case and Unicode compatibility forms (src/store/title-search.ts); empty: any title. */
  titleContains?: string;
}

export interface DiagramPage {
  items: DiagramMeta[];
  /** Pass back to get the next page; null on the last one. */
  nextCursor: string | null;
}

/**
 * The caller's own diagrams, newest first (by creation), a page at a time. The
 * cursor is the last item's (createdAt, id), so pages stay stable when
 * diagrams are created in between; it carries a digest of the filters, and is
 * refused under any others.
 */
export async function listDiagrams(deps: AppDeps, caller: Caller, query: DiagramListQuery): Promise<DiagramPage> {
  const after = query.cursor === null ? null : decodeCursor(query.cursor, query);
  const folderId = typeof query.folderId === 'string' ? (await folderFor(deps, caller, query.folderId)).id : query.folderId;
  const rows = await deps.store.diagrams.listOwned({
    ownerId: caller.user.id,
    trashed: query.trashed,
    after,
    limit: query.limit + 1,
    ...(folderId === undefined ? {} : { folderId }),
    ...(query.starred === undefined ? {} : { starred: query.starred }),
    ...(query.titleContains ? { titleContains: query.titleContains } : {}),
  });
  const items = rows.slice(0, query.limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > query.limit && last ? encodeCursor(last, query) : null };
}

export interface DiagramOverview extends DiagramPage {
  folders: FolderRecord[];
  counts: Awaited<ReturnType<AppDeps['store']['diagrams']['countOwned']>>;
}

/** The sidebar of a person browsing diagrams: their folders and how many of their diagrams are where. */
export async function diagramsOverview(deps: AppDeps, caller: Caller): Promise<Omit<DiagramOverview, keyof DiagramPage>> {
  const ownerId = caller.user.id;
  const [folders, counts] = await Promise.all([deps.store.folders.list(ownerId), deps.store.diagrams.countOwned(ownerId)]);
  return { folders, counts };
}

/** What a person browsing their diagrams sees: their folders, how many diagrams are where, and one page of the list. */
export async function browseDiagrams(deps: AppDeps, caller: Caller, query: DiagramListQuery): Promise<DiagramOverview> {
  const [overview, page] = await Promise.all([diagramsOverview(deps, caller), listDiagrams(deps, caller, query)]);
  return { ...overview, ...page };
}

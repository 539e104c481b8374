/**
 * Diagrams a person reaches besides their own: those shared with them
 * directly or in a workspace they belong to ("shared with me"), and a
 * workspace's diagrams for its members. Each comes with the caller's role on
 * it, from the one access policy.
 */
import { type DiagramRole, roleOn } from '../../auth/policy.ts';
import type { DiagramMeta } from '../../store/store.ts';
import { workspaceFor } from '../access.ts';
import { decodeCursor, encodeCursor } from '../diagrams/cursor.ts';
import type { AppDeps, Caller } from '../deps.ts';

export type Reach = { kind: 'shared' } | { kind: 'workspace'; workspaceId: string };

export interface ReachableDiagramsQuery {
  reach: Reach;
  /** A nextCursor from the previous page, or null for the first. */
  cursor: string | null;
  limit: number;
}

interface ReachableDiagramItem extends DiagramMeta {
  /** The caller's role on the diagram. */
  role: DiagramRole;
}

export interface ReachableDiagramPage {
  items: ReachableDiagramItem[];
  nextCursor: string | null;
}

/**
 * One page, newest first (by creation) like the owner's own list: for
 * `shared`, active diagrams others own that are shared with the caller or in
 * one of their workspaces; for a workspace (members only, else not_found),
 * its active diagrams, the caller's own included.
 */
export async function listReachableDiagrams(deps: AppDeps, caller: Caller, query: ReachableDiagramsQuery): Promise<ReachableDiagramPage> {
  const scope = query.reach.kind === 'shared' ? query.reach : { kind: 'workspace' as const, workspaceId: (await workspaceFor(deps, caller, query.reach.workspaceId, 'view')).workspace.id };
  const filters = { trashed: false, reach: scope.kind === 'shared' ? 'shared' : `workspace:${scope.workspaceId}` };
  const after = query.cursor === null ? null : decodeCursor(query.cursor, filters);
  const rows = await deps.store.sharing.listReachable({ userId: caller.user.id, scope, after, limit: query.limit + 1 });
  const items = rows.slice(0, query.limit).flatMap(({ diagram, access }) => {
    const role = roleOn(access, caller.user.id);
    return role === null ? [] : [{ ...diagram, role }];
  });
  const last = rows.length > query.limit ? rows[query.limit - 1]?.diagram : undefined;
  return { items, nextCursor: last ? encodeCursor(last, filters) : null };
}

/**
 * What the dashboard shows, as read from its URL (`/app?folder=…&starred=1&q=…`,
 * `/app?view=shared`, `/app?workspace=…`),
 * and the links that change one part of it while keeping the rest.
 */
/** The longest search the dashboard sends to the database; longer text is cut. */
const SEARCH_MAX_LENGTH = 200;

export interface DashboardFilters {
  /**
   * `trash` lists trashed diagrams, `shared` the diagrams others share with the
   * person (directly or through a workspace); the folder and star filters
   * apply to neither.
   */
  view: 'active' | 'trash' | 'shared';
  /** Only this workspace's diagrams (members only). */
  workspaceId: string | null;
  /** Only diagrams filed directly in this folder. */
  folderId: string | null;
  starred: boolean;
  /** Title search, case-insensitive substring; '' for none. */
  q: string;
  /** The list cursor (src/app/diagrams/cursor.ts): the page after it. */
  cursor: string | null;
}

export const ALL_DIAGRAMS: DashboardFilters = { view: 'active', workspaceId: null, folderId: null, starred: false, q: '', cursor: null };

function first(value: unknown): string | undefined {
  const one = Array.isArray(value) ? value[0] : value;
  return typeof one === 'string' ? one : undefined;
}

/** Reads the filters from a query string; the page answers not found for a folder that is not the user's. */
export function parseFilters(query: unknown): DashboardFilters {
  const params = (query ?? {}) as Record<string, unknown>;
  const viewParam = first(params.view);
  const view = viewParam === 'trash' || viewParam === 'shared' ? viewParam : 'active';
  const q = Array.from((first(params.q) ?? '').trim()).slice(0, SEARCH_MAX_LENGTH).join('');
  const cursor = first(params.cursor) || null;
  if (view !== 'active') return { ...ALL_DIAGRAMS, view, q, cursor };
  const workspaceId = first(params.workspace) || null;
  if (workspaceId) return { ...ALL_DIAGRAMS, workspaceId, q, cursor };
  return { ...ALL_DIAGRAMS, folderId: first(params.folder) || null, starred: first(params.starred) === '1', q, cursor };
}

/** The dashboard URL for these filters (only the parts that are set). */
export function dashboardHref(filters: DashboardFilters): string {
  const params = new URLSearchParams();
  if (filters.view !== 'active') params.set('view', filters.view);
  if (filters.workspaceId) params.set('workspace', filters.workspaceId);
  if (filters.folderId) params.set('folder', filters.folderId);
  if (filters.starred) params.set('starred', '1');
  if (filters.q) params.set('q', filters.q);
  if (filters.cursor) params.set('cursor', filters.cursor);
  const query = params.toString();
  return query ? `/app?${query}` : '/app';
}

const APP_PATH = /^\/app(?:[/?]|$)[\x21-\x7e]*$/;

/**
 * Where a form sends the browser back to: the page it came from (a `back`
 * field the page filled in), if that is a path of this app; otherwise the
 * dashboard. Never another site, whatever the form says.
 */
export function returnPath(back: string | undefined): string {
  return back !== undefined && APP_PATH.test(back) && !back.includes('\\') ? back : '/app';
}

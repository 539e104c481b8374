/**
 * The editor's side of a diagram's history: the revisions the web app's
 * session routes answer (`/app/api/diagrams/:id/revisions…`), and the words
 * the history panel shows for them. No React here.
 */
import type { RestoredRevision, RevisionList as RevisionPage, Via as RevisionVia } from '../../api/history-schemas.ts';
import { responseError } from './diagram-api.ts';

export type { RevisionItem, RevisionList as RevisionPage, Via as RevisionVia } from '../../api/history-schemas.ts';

/** One revision's scene, with the images its catalog icons show. */
export interface RevisionDocument {
  rev: string;
  at: string;
  scene: { elements: unknown[] };
  files: Record<string, unknown>;
}

const PAGE_SIZE = 30;

function revisionsUrl(diagramId: string, ...rest: string[]): string {
  return ['/app/api/diagrams', diagramId, 'revisions', ...rest].map((part, i) => (i === 0 ? part : encodeURIComponent(part))).join('/');
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw await responseError(response);
  return (await response.json()) as T;
}

/** A page of revisions, newest first; `cursor` is the previous page's `nextCursor`. */
export async function fetchRevisions(diagramId: string, cursor?: string | null): Promise<RevisionPage> {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (cursor) query.set('cursor', cursor);
  return json(await fetch(`${revisionsUrl(diagramId)}?${query}`, { headers: { accept: 'application/json' }, cache: 'no-store' }));
}

export async function fetchRevision(diagramId: string, rev: string): Promise<RevisionDocument> {
  return json(await fetch(revisionsUrl(diagramId, rev), { headers: { accept: 'application/json' }, cache: 'no-store' }));
}

/**
 * Makes revision `rev` the diagram's content again (a new revision), unless
 * the diagram moved on past `expectedUpdatedAt` (409 stale_read).
 */
export async function restoreRevision(diagramId: string, rev: string, csrfToken: string, expectedUpdatedAt: string): Promise<RestoredRevision> {
  return json(
    await fetch(revisionsUrl(diagramId, rev, 'restore'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrfToken },
      body: JSON.stringify({ expectedUpdatedAt }),
    }),
  );
}

/**
 * The newest page merged into the list already shown: when it reaches the
 * first revision shown, the revisions before that are added on top and the
 * pages loaded below are kept; otherwise more changed than one page holds, and
 * the list starts over from the newest page.
 */
export function mergeNewest(shown: RevisionPage, newest: RevisionPage): RevisionPage {
  const first = shown.items[0];
  const overlap = first ? newest.items.findIndex((item) => item.rev === first.rev) : -1;
  if (overlap === -1) return newest;
  return { items: [...newest.items.slice(0, overlap), ...shown.items], nextCursor: shown.nextCursor };
}

/** Who and how, in words: "API token 'agent-bot'", "MCP · patch_elements (token 'agent-bot')", "web editor". */
export function describeVia(via: RevisionVia | null): string {
  if (via === null) return '';
  switch (via.kind) {
    case 'web':
      return 'web editor';
    case 'token':
      return `API token '${via.token?.name ?? via.name}'`;
    case 'oauth':
      return `OAuth app '${via.client?.name ?? via.name}'`;
    case 'mcp': {
      const through = via.client ? `OAuth app '${via.client.name}'` : via.token ? `token '${via.token.name}'` : null;
      return `MCP · ${via.tool ?? via.name}${through ? ` (${through})` : ''}`;
    }
    default:
      return via.name;
  }
}

const KIND_LABELS: Readonly<Record<string, string>> = {
  create: 'Created',
  edit: 'Edited',
  regenerate: 'Regenerated',
  patch: 'Patched',
  save: 'Saved',
  restore: 'Restored',
  rename: 'Renamed',
  move: 'Moved',
  baseline: 'Earliest',
};

/** The kind of write as a short tag ("Patched", "Restored"). */
export function kindLabel(kind: string): string {
  return KIND_LABELS[kind] ?? kind;
}

/** How long ago `iso` was: "just now", "5 minutes ago", "yesterday", "3 days ago"; older than a week, the date. */
export function relativeTime(iso: string, now: number): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (seconds < 45) return 'just now';
  const words = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  if (seconds < 3600) return words.format(-Math.max(1, Math.round(seconds / 60)), 'minute');
  if (seconds < 86_400) return words.format(-Math.round(seconds / 3600), 'hour');
  if (seconds < 7 * 86_400) return words.format(-Math.round(seconds / 86_400), 'day');
  return new Date(iso).toLocaleDateString('en', { year: 'numeric', month: 'short', day: 'numeric' });
}

/** The exact time, for a tooltip: "Nov 24, 2026, 10:00:05 AM" in the browser's time zone. */
export function exactTime(iso: string): string {
  return new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'medium' });
}

/** The dashboard's HTML: a sidebar of views, folders and workspaces, a search, and a grid of diagram cards. Every text is escaped here. */
import type { WorkspaceView } from '../../api/presenters/sharing.ts';
import type { DiagramRole } from '../../auth/policy.ts';
import type { DiagramMeta, OwnedDiagramCounts } from '../../store/store.ts';
import { escapeHtml } from '../html.ts';
import { csrfField, unverifiedBanner } from '../layout.ts';
import type { WebSession } from '../session.ts';
import { ALL_DIAGRAMS, type DashboardFilters, dashboardHref } from './filters.ts';
import type { FolderNode } from './folder-tree.ts';
import { dialogsMount, membersButton, roleBadge, shareButton, workspaceMoveForm, workspaceSection } from './sharing-page.ts';
import { sideLink } from './side-link.ts';

export interface DashboardModel {
  session: WebSession;
  filters: DashboardFilters;
  folders: FolderNode[];
  counts: OwnedDiagramCounts;
  /** The diagrams listed; those others own carry the person's role on them. */
  diagrams: (DiagramMeta & { role?: DiagramRole })[];
  /** The workspaces the person belongs to, with their role in each. */
  workspaces: WorkspaceView[];
  /** The cursor of the next page, when there is one. */
  nextCursor: string | null;
  now: Date;
}

/** How long ago `iso` was, in the few words a card has room for; older than a week, the date. */
export function timeAgo(iso: string, now: Date): string {
  const seconds = Math.floor((now.getTime() - Date.parse(iso)) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86_400);
  if (days < 7) return days === 1 ? 'yesterday' : `${days} days ago`;
  return iso.slice(0, 10);
}

const attr = escapeHtml;

function time(iso: string, prefix: string, now: Date): string {
  return `<time datetime="${attr(iso)}" title="${attr(iso)}">${prefix} ${escapeHtml(timeAgo(iso, now))}</time>`;
}

/** The fields every dashboard form carries: the CSRF token and the page to come back to. */
function formFields(model: DashboardModel): string {
  return `${csrfField(model.session)}<input type="hidden" name="back" value="${attr(dashboardHref(model.filters))}">`;
}

/** `<option>`s for a folder picker: `none` (the empty value) first, then the tree, indented. */
export function folderOptions(folders: FolderNode[], selected: string | null, none: string): string {
  const options = folders.map(
    ({ folder, depth }) =>
      `<option value="${attr(folder.id)}"${folder.id === selected ? ' selected' : ''}>${'\u00a0\u00a0'.repeat(depth)}${escapeHtml(folder.name)}</option>`,
  );
  return [`<option value=""${selected === null ? ' selected' : ''}>${escapeHtml(none)}</option>`, ...options].join('');
}

function sidebar(model: DashboardModel): string {
  const { filters, counts, folders } = model;
  const active = filters.view === 'active' && !filters.workspaceId;
  const folderLinks = folders
    .map(({ folder, depth }) =>
      sideLink(dashboardHref({ ...ALL_DIAGRAMS, folderId: folder.id }), folder.name, counts.byFolder[folder.id] ?? 0, active && filters.folderId === folder.id && !filters.starred, depth),
    )
    .join('\n');
  return `<aside class="sidebar" id="sidebar">
<nav aria-label="Diagrams">
<ul class="views">
${sideLink('/app', 'All diagrams', counts.active, active && !filters.folderId && !filters.starred)}
${sideLink(dashboardHref({ ...ALL_DIAGRAMS, starred: true }), 'Starred', counts.starred, active && !filters.folderId && filters.starred)}
${sideLink(dashboardHref({ ...ALL_DIAGRAMS, view: 'shared' }), 'Shared with me', null, filters.view === 'shared')}
</ul>
${workspaceSection(model.workspaces, filters.workspaceId, formFields(model))}
<h2>Folders</h2>
${folders.length > 0 ? `<ul class="folders">\n${folderLinks}\n</ul>` : '<p class="muted small">No folders yet.</p>'}
<ul class="views">
${sideLink(dashboardHref({ ...ALL_DIAGRAMS, view: 'trash' }), 'Trash', counts.trashed, filters.view === 'trash')}
</ul>
</nav>
<form class="new-folder" method="post" action="/app/folders">
${formFields(model)}
<label for="new-folder-name">New folder</label>
<input id="new-folder-name" type="text" name="name" required maxlength="200" placeholder="Name">
<select name="parentId" aria-label="Inside">${folderOptions(folders, active ? filters.folderId : null, 'Top level')}</select>
<button type="submit" class="secondary">Create folder</button>
</form>
</aside>`;
}

function heading(model: DashboardModel): string {
  const { filters, folders } = model;
  if (filters.view === 'trash') return 'Trash';
  if (filters.view === 'shared') return 'Shared with me';
  const workspace = model.workspaces.find((w) => w.id === filters.workspaceId);
  if (workspace) return workspace.name;
  const folder = folders.find((f) => f.folder.id === filters.folderId)?.folder;
  if (folder) return filters.starred ? `Starred in ${folder.name}` : folder.name;
  return filters.starred ? 'Starred' : 'All diagrams';
}

function toolbar(model: DashboardModel): string {
  const { filters } = model;
  const keep = [
    filters.view === 'trash' ? '<input type="hidden" name="view" value="trash">' : '',
    filters.folderId ? `<input type="hidden" name="folder" value="${attr(filters.folderId)}">` : '',
    filters.starred ? '<input type="hidden" name="starred" value="1">' : '',
  ].join('');
  const clear = filters.q ? ` <a href="${attr(dashboardHref({ ...filters, q: '', cursor: null }))}">Clear</a>` : '';
  const newHref = filters.folderId ? `/app/new?folder=${encodeURIComponent(filters.folderId)}` : '/app/new';
  // Shared and workspace lists are not searched by title: they are the API's lists, which have no search.
  const searchable = filters.view !== 'shared' && !filters.workspaceId;
  return `<div class="toolbar">
<h1>${escapeHtml(heading(model))}</h1>
<a class="to-sidebar" href="#sidebar">Folders and views ↓</a>
${searchable ? `<form class="search" method="get" action="/app" role="search">${keep}
<input type="search" name="q" value="${attr(filters.q)}" maxlength="200" placeholder="Search titles" aria-label="Search titles">
<button type="submit" class="secondary">Search</button>${clear}
</form>` : ''}
${membersButton(model.workspaces.find((w) => w.id === filters.workspaceId))}
${filters.view === 'active' && !filters.workspaceId ? `<a class="button" href="${attr(newHref)}">New diagram</a>` : ''}
</div>
${filters.q ? `<p class="muted">Titles containing “${escapeHtml(filters.q)}”</p>` : ''}`;
}

function thumbnail(diagram: DiagramMeta, linked: boolean): string {
  const picture =
    diagram.elementCount === 0
      ? '<span class="empty">Empty</span>'
      : `<img src="${attr(thumbnailHref(diagram))}" alt="" loading="lazy">`;
  return linked
    ? `<a class="thumb" href="/app/d/${attr(diagram.id)}" tabindex="-1" aria-hidden="true">${picture}</a>`
    : `<div class="thumb">${picture}</div>`;
}

/** The thumbnail's URL changes with the content (`v`), so the browser may keep each version for long. */
function thumbnailHref(diagram: DiagramMeta): string {
  return `/app/d/${diagram.id}/thumbnail.png?v=${encodeURIComponent(diagram.docUpdatedAt ?? diagram.updatedAt)}`;
}

function elementCount(n: number): string {
  return n === 0 ? 'empty' : n === 1 ? '1 element' : `${n} elements`;
}

function activeCard(model: DashboardModel, diagram: DiagramMeta): string {
  const id = attr(diagram.id);
  const title = escapeHtml(diagram.title);
  const star = diagram.starred
    ? `<input type="hidden" name="starred" value="0"><button type="submit" class="star on" title="Unstar" aria-label="Unstar ${attr(diagram.title)}">★</button>`
    : `<input type="hidden" name="starred" value="1"><button type="submit" class="star" title="Star" aria-label="Star ${attr(diagram.title)}">☆</button>`;
  return `<li class="card">
${thumbnail(diagram, true)}
<div class="card-body">
<div class="title-row"><a class="title" href="/app/d/${id}">${title}</a>
<form method="post" action="/app/d/${id}/star">${formFields(model)}${star}</form></div>
<p class="meta">${time(diagram.updatedAt, 'Updated', model.now)} · ${elementCount(diagram.elementCount)}</p>
<details class="actions"><summary>Share, rename, move, trash</summary>
${shareButton(diagram.id)}
<form method="post" action="/app/d/${id}/rename">${formFields(model)}<input type="text" name="title" value="${title}" required maxlength="200" aria-label="New title"><button type="submit" class="secondary">Rename</button></form>
<form method="post" action="/app/d/${id}/move">${formFields(model)}<select name="folderId" aria-label="Folder">${folderOptions(model.folders, diagram.folderId, 'No folder')}</select><button type="submit" class="secondary">Move</button></form>
${workspaceMoveForm(diagram, model.workspaces, formFields(model))}
<form method="post" action="/app/d/${id}/trash">${formFields(model)}<button type="submit" class="danger">Move to trash</button></form>
</details>
</div>
</li>`;
}

/** A diagram someone else owns: open it, see the role, and the share dialog (read-only unless one owns it). */
function reachableCard(model: DashboardModel, diagram: DiagramMeta, role: DiagramRole): string {
  return `<li class="card shared">
${thumbnail(diagram, true)}
<div class="card-body">
<div class="title-row"><a class="title" href="/app/d/${attr(diagram.id)}">${escapeHtml(diagram.title)}</a>${roleBadge(role)}</div>
<p class="meta">${time(diagram.updatedAt, 'Updated', model.now)} · ${elementCount(diagram.elementCount)}</p>
${shareButton(diagram.id)}
</div>
</li>`;
}

function trashedCard(model: DashboardModel, diagram: DiagramMeta): string {
  return `<li class="card trashed">
${thumbnail(diagram, false)}
<div class="card-body">
<div class="title-row"><span class="title">${escapeHtml(diagram.title)}</span></div>
<p class="meta">${time(diagram.deletedAt ?? diagram.updatedAt, 'Trashed', model.now)} · ${elementCount(diagram.elementCount)}</p>
<form method="post" action="/app/d/${attr(diagram.id)}/restore">${formFields(model)}<button type="submit" class="secondary">Restore</button></form>
</div>
</li>`;
}

function emptyState(model: DashboardModel): string {
  const { filters } = model;
  const q = `“${escapeHtml(filters.q)}”`;
  if (filters.view === 'trash') return filters.q ? `No trashed diagram has ${q} in its title.` : 'The trash is empty.';
  if (filters.view === 'shared') return 'Nothing is shared with you yet. When someone shares a diagram with you, or adds you to a workspace, it shows here.';
  if (filters.workspaceId) return 'No diagrams in this workspace yet. Its members move diagrams here from their cards (Share, rename, move, trash).';
  if (filters.q) return `No diagram here has ${q} in its title.`;
  if (filters.starred) return 'No starred diagrams here. Star one with ☆ on its card.';
  if (filters.folderId) return 'This folder is empty. Move a diagram here from its card, or create a new one.';
  return 'No diagrams yet. Create one from a spec with <strong>New diagram</strong>, or through the API.';
}

function pager(model: DashboardModel): string {
  const { filters, nextCursor } = model;
  const links = [
    filters.cursor ? `<a href="${attr(dashboardHref({ ...filters, cursor: null }))}">First page</a>` : '',
    nextCursor ? `<a href="${attr(dashboardHref({ ...filters, cursor: nextCursor }))}" rel="next">Next page</a>` : '',
  ].filter(Boolean);
  return links.length > 0 ? `<nav class="pager" aria-label="Pages">${links.join(' ')}</nav>` : '';
}


export function dashboardBody(model: DashboardModel): string {
  const cards = model.diagrams
    .map((d) => (model.filters.view === 'trash' ? trashedCard(model, d) : d.role === undefined || d.role === 'owner' ? activeCard(model, d) : reachableCard(model, d, d.role)))
    .join('\n');
  return `<main class="dashboard">
${unverifiedBanner(model.session)}
<div class="columns">
${sidebar(model)}
<section class="content">
${toolbar(model)}
${model.diagrams.length > 0 ? `<ul class="cards">\n${cards}\n</ul>` : `<p class="empty-state muted">${emptyState(model)}</p>`}
${pager(model)}
</section>
</div>
${dialogsMount(model.session.csrfToken)}
</main>`;
}

/**
 * The dashboard's sharing parts: the workspaces in the sidebar (with a form
 * to create one), a workspace's Members button, each card's Share button and
 * "move to a workspace" form, and where the dashboard script mounts the
 * share and members dialogs. Buttons that open a dialog are links too: the
 * share link opens the editor with its share dialog, so they work before
 * the script has loaded.
 */
import type { WorkspaceRole, WorkspaceView } from '../../api/presenters/sharing.ts';
import type { DiagramRole } from '../../auth/policy.ts';
import type { DiagramMeta } from '../../store/store.ts';
import { escapeHtml } from '../html.ts';
import { ALL_DIAGRAMS, dashboardHref } from './filters.ts';
import { sideLink } from './side-link.ts';

const attr = escapeHtml;

const ROLE_WORDS: Record<DiagramRole | WorkspaceRole, string> = { owner: 'Owner', admin: 'Admin', editor: 'Editor', viewer: 'Viewer' };

/** The person's role on a diagram or in a workspace, as a small label. */
export function roleBadge(role: DiagramRole | WorkspaceRole): string {
  return `<span class="role role-${role}" title="Your role">${ROLE_WORDS[role]}</span>`;
}

/** Workspaces the person may move their diagrams into: a viewer may not add diagrams to one. */
function destinations(workspaces: readonly WorkspaceView[]): WorkspaceView[] {
  return workspaces.filter((w) => w.role !== 'viewer');
}

/** The sidebar's workspaces, and the form that creates one (its creator is its first admin). */
export function workspaceSection(workspaces: readonly WorkspaceView[], currentId: string | null, formFields: string): string {
  const links = workspaces.map((w) => sideLink(dashboardHref({ ...ALL_DIAGRAMS, workspaceId: w.id }), w.name, null, w.id === currentId)).join('\n');
  return `<h2>Workspaces</h2>
${workspaces.length > 0 ? `<ul class="workspaces">\n${links}\n</ul>` : '<p class="muted small">No workspaces yet.</p>'}
<details class="new-workspace"><summary>New workspace</summary>
<form method="post" action="/app/workspaces">${formFields}
<input type="text" name="name" required maxlength="200" placeholder="Name" aria-label="Workspace name">
<button type="submit" class="secondary">Create workspace</button>
</form>
</details>`;
}

/** The toolbar's button for a workspace's members (everyone sees them; admins manage them). */
export function membersButton(workspace: WorkspaceView | undefined): string {
  if (!workspace) return '';
  const members = workspace.memberCount === 1 ? '1 member' : `${workspace.memberCount} members`;
  return `<span class="workspace-meta">${roleBadge(workspace.role)} <span class="muted">${members}</span></span>
<button type="button" class="secondary" data-workspace-members="${attr(workspace.id)}">Members</button>`;
}

/** Opens the share dialog (the dashboard script), or the editor with it (without script). */
export function shareButton(diagramId: string): string {
  return `<a class="button secondary share" href="/app/d/${attr(diagramId)}#share" data-share-diagram="${attr(diagramId)}">Share…</a>`;
}

/** Moving an owned diagram into a workspace the person may add to, or out of any. */
export function workspaceMoveForm(diagram: DiagramMeta, workspaces: readonly WorkspaceView[], formFields: string): string {
  const targets = destinations(workspaces);
  const current = workspaces.find((w) => w.id === diagram.workspaceId);
  if (targets.length === 0 && !current) return '';
  const listed = current && !targets.includes(current) ? [current, ...targets] : targets;
  const options = [
    `<option value=""${diagram.workspaceId === null ? ' selected' : ''}>No workspace</option>`,
    ...listed.map((w) => `<option value="${attr(w.id)}"${w.id === diagram.workspaceId ? ' selected' : ''}>${escapeHtml(w.name)}</option>`),
  ].join('');
  return `<form method="post" action="/app/d/${attr(diagram.id)}/workspace">${formFields}<select name="workspaceId" aria-label="Workspace">${options}</select><button type="submit" class="secondary">Move</button></form>`;
}

/** Where the dashboard script opens its dialogs, with the session's CSRF token for their changes. */
export function dialogsMount(csrfToken: string): string {
  return `<div id="dashboard-dialogs" data-csrf-token="${attr(csrfToken)}"></div>`;
}

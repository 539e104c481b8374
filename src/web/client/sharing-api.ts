/**
 * The share and members dialogs' side of the web app's session routes
 * (`/app/api/diagrams/:id/sharing…`, `/app/api/workspaces/:id/members…`).
 * Every change carries the session's CSRF token. No React here.
 */
import { responseError } from './diagram-api.ts';

export type ShareRole = 'viewer' | 'editor';
export type WorkspaceRole = 'viewer' | 'editor' | 'admin';

export interface Person<Role extends string> {
  userId: string;
  email: string;
  role: Role;
}

export interface Invitation<Role extends string> {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
}

export interface PublicLinkState {
  enabled: boolean;
  hasPassword: boolean;
  /** The public page, while the link is enabled. */
  url: string | null;
}

export interface DiagramSharingState {
  id: string;
  title: string;
  /** Only the owner manages sharing and publishing; others see the link and whether it is published. */
  isOwner: boolean;
  /** The editor's address: it opens for the people the diagram is shared with. */
  editorUrl: string;
  publicLink: PublicLinkState;
  /** Who has access: for the owner only (null for everyone else). */
  people: { ownerEmail: string; shares: Person<ShareRole>[]; invitations: Invitation<ShareRole>[] } | null;
}

export interface WorkspaceMembersState {
  id: string;
  name: string;
  /** The caller's role: admins manage members; everyone may leave. */
  role: WorkspaceRole;
  you: string;
  members: Person<WorkspaceRole>[];
  invitations: Invitation<WorkspaceRole>[];
}

/** An invitation by email: a person with an account gets access at once, anyone else an invitation by mail. */
export type InviteOutcome = { share: Person<string> } | { member: Person<string> } | { invitation: Invitation<string> };

async function call<T>(method: string, url: string, csrfToken: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (csrfToken !== null) headers['x-csrf-token'] = csrfToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method, headers, cache: 'no-store', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!response.ok) throw await responseError(response);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

const diagramUrl = (id: string, ...rest: string[]) => ['/app/api/diagrams', id, ...rest].map((part, i) => (i === 0 ? part : encodeURIComponent(part))).join('/');
const workspaceUrl = (id: string, ...rest: string[]) => ['/app/api/workspaces', id, ...rest].map((part, i) => (i === 0 ? part : encodeURIComponent(part))).join('/');

export const sharingApi = {
  state: (diagramId: string) => call<DiagramSharingState>('GET', diagramUrl(diagramId, 'sharing'), null),
  invite: (diagramId: string, csrf: string, email: string, role: ShareRole) => call<InviteOutcome>('POST', diagramUrl(diagramId, 'shares'), csrf, { email, role }),
  changeRole: (diagramId: string, csrf: string, userId: string, role: ShareRole) => call<Person<ShareRole>>('PUT', diagramUrl(diagramId, 'shares', userId), csrf, { role }),
  remove: (diagramId: string, csrf: string, userId: string) => call<void>('DELETE', diagramUrl(diagramId, 'shares', userId), csrf),
  cancelInvitation: (invitationId: string, csrf: string) => call<void>('DELETE', `/app/api/invitations/${encodeURIComponent(invitationId)}`, csrf),
  setPublicLink: (diagramId: string, csrf: string, change: { enabled: boolean; password?: string | null }) =>
    call<PublicLinkState>('PUT', diagramUrl(diagramId, 'public-link'), csrf, change),
};

export const membersApi = {
  rename: (workspaceId: string, csrf: string, name: string) => call<{ name: string }>('PUT', workspaceUrl(workspaceId), csrf, { name }),
  state: (workspaceId: string) => call<WorkspaceMembersState>('GET', workspaceUrl(workspaceId, 'members'), null),
  invite: (workspaceId: string, csrf: string, email: string, role: WorkspaceRole) => call<InviteOutcome>('POST', workspaceUrl(workspaceId, 'members'), csrf, { email, role }),
  changeRole: (workspaceId: string, csrf: string, userId: string, role: WorkspaceRole) =>
    call<Person<WorkspaceRole>>('PUT', workspaceUrl(workspaceId, 'members', userId), csrf, { role }),
  remove: (workspaceId: string, csrf: string, userId: string) => call<void>('DELETE', workspaceUrl(workspaceId, 'members', userId), csrf),
};

/** A refused change in a sentence for the dialog. */
export function failureMessage(error: unknown): string {
  const status = (error as { status?: number }).status;
  if (status === 401) return 'You are signed out. Sign in again in another tab.';
  if (status === 404) return 'This is not yours to change, or it no longer exists.';
  return error instanceof Error ? error.message : String(error);
}

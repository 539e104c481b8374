/**
 * The share dialog, in the editor and on the dashboard: who has access and
 * with which role (invite by email, change, remove), the diagram's link, and
 * its public page (publish on or off, a password set or cleared). The rules
 * are the API's, enforced by the server: only the owner manages sharing and
 * publishing; anyone else sees the link, whether the diagram is published,
 * and a line saying who decides.
 */
import { type FormEvent, useCallback, useState } from 'react';
import { embedMarkdown } from '../../api/embed.ts';
import { CopyField, Modal } from './modal.tsx';
import { PeopleEditor } from './people-editor.tsx';
import { StatusLines, useServerState } from './server-state.tsx';
import { type DiagramSharingState, type InviteOutcome, type ShareRole, sharingApi } from './sharing-api.ts';

const SHARE_ROLES = [
  { value: 'viewer', label: 'Viewer' },
  { value: 'editor', label: 'Editor' },
] as const satisfies readonly { value: ShareRole; label: string }[];

function inviteNotice(outcome: InviteOutcome, email: string): string {
  return 'invitation' in outcome ? `${email} has no account yet: an invitation is on its way. Access starts when they sign up.` : `Shared with ${email}.`;
}

export function ShareDialog({ diagramId, csrfToken, onClose }: { diagramId: string; csrfToken: string; onClose(): void }) {
  const load = useCallback(() => sharingApi.state(diagramId), [diagramId]);
  const { state, busy, notice, problem, change } = useServerState<DiagramSharingState>(load);

  return (
    <Modal title={state ? `Share “${state.title}”` : 'Share'} onClose={onClose}>
      <StatusLines notice={notice} problem={problem} />
      {state === null ? (
        !problem && <p className="db-muted">Loading…</p>
      ) : (
        <>
          <section aria-labelledby="share-people">
            <h3 id="share-people">People with access</h3>
            {state.people ? (
              <PeopleEditor
                roles={SHARE_ROLES}
                owner={{ email: state.people.ownerEmail, label: 'Owner' }}
                people={state.people.shares}
                invitations={state.people.invitations}
                canManage
                busy={busy}
                onInvite={(email, role) => change(async () => inviteNotice(await sharingApi.invite(diagramId, csrfToken, email, role), email))}
                onChangeRole={(userId, role) => void change(async () => (await sharingApi.changeRole(diagramId, csrfToken, userId, role), null))}
                onRemove={(person) => void change(async () => (await sharingApi.remove(diagramId, csrfToken, person.userId), `${person.email} no longer has access.`))}
                onCancelInvitation={(invitation) =>
                  void change(async () => (await sharingApi.cancelInvitation(invitation.id, csrfToken), `The invitation of ${invitation.email} is cancelled.`))
                }
              />
            ) : (
              <p className="db-muted">Only the diagram's owner sees who has access and shares it.</p>
            )}
            <p className="db-hint">Viewers can look and follow changes; editors can change the diagram. Only the owner can share, publish, move or delete it.</p>
          </section>
          <section aria-labelledby="share-link">
            <h3 id="share-link">Link</h3>
            <CopyField label="Link to this diagram" value={state.editorUrl} />
            <p className="db-hint">Opens the diagram for the people it is shared with; anyone else gets “not found”.</p>
          </section>
          <PublicPageSection state={state} busy={busy} onChange={(enabled, password) => change(async () => (await sharingApi.setPublicLink(diagramId, csrfToken, { enabled, ...(password === undefined ? {} : { password }) }), null))} />
        </>
      )}
    </Modal>
  );
}

/** Publishing: on or off, and an optional password. */
function PublicPageSection({ state, busy, onChange }: { state: DiagramSharingState; busy: boolean; onChange(enabled: boolean, password?: string | null): Promise<boolean> }) {
  const { publicLink, isOwner } = state;
  const [password, setPassword] = useState('');
  const setNewPassword = async (event: FormEvent) => {
    event.preventDefault();
    if (await onChange(true, password)) setPassword('');
  };
  return (
    <section aria-labelledby="share-public">
      <h3 id="share-public">Public page</h3>
      {isOwner ? (
        <label className="db-switch">
          <input type="checkbox" checked={publicLink.enabled} disabled={busy} onChange={(event) => void onChange(event.target.checked)} />
          Publish: anyone with the public link can view this diagram, without an account
        </label>
      ) : (
        <p className="db-muted">{publicLink.enabled ? 'Published by its owner.' : 'Not published. Only the owner can publish it.'}</p>
      )}
      {publicLink.enabled && publicLink.url && (
        <>
          <CopyField label="Public link" value={publicLink.url} />
          <p className="db-hint">
            {publicLink.hasPassword ? 'Protected: visitors type the password first.' : 'No password: anyone with the link can view it.'}{' '}
            <a href={publicLink.url} target="_blank" rel="noopener noreferrer">
              Open the public page
            </a>
          </p>
          {!publicLink.hasPassword && (
            <>
              <CopyField label="Markdown to embed the image" value={embedMarkdown(state.title, publicLink.url)} />
              <p className="db-hint">Paste it into a README, a wiki or a pull request: the image always shows the diagram as it is now.</p>
            </>
          )}
          {isOwner && (
            <form className="db-password" onSubmit={(event) => void setNewPassword(event)}>
              <input type="password" required autoComplete="new-password" placeholder={publicLink.hasPassword ? 'New password' : 'Password'} aria-label="Password of the public page" value={password} onChange={(event) => setPassword(event.target.value)} />
              <button type="submit" className="db-button" disabled={busy}>
                {publicLink.hasPassword ? 'Change password' : 'Set password'}
              </button>
              {publicLink.hasPassword && (
                <button type="button" className="db-button db-button-quiet" disabled={busy} onClick={() => void onChange(true, null)}>
                  Remove password
                </button>
              )}
            </form>
          )}
        </>
      )}
    </section>
  );
}

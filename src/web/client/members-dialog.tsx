/**
 * A workspace's members, on the dashboard: everyone in it sees who is there
 * and may leave; admins rename the workspace, invite by email, change roles
 * and remove members.
 * The server holds the rules (the API's): a workspace keeps at least one
 * admin, so the last one can neither leave nor be demoted.
 */
import { useCallback, useState } from 'react';
import { Modal } from './modal.tsx';
import { PeopleEditor } from './people-editor.tsx';
import { StatusLines, useServerState } from './server-state.tsx';
import { type InviteOutcome, membersApi, sharingApi, type WorkspaceMembersState, type WorkspaceRole } from './sharing-api.ts';

const WORKSPACE_ROLES = [
  { value: 'viewer', label: 'Viewer' },
  { value: 'editor', label: 'Editor' },
  { value: 'admin', label: 'Admin' },
] as const satisfies readonly { value: WorkspaceRole; label: string }[];

function inviteNotice(outcome: InviteOutcome, email: string): string {
  return 'invitation' in outcome ? `${email} has no account yet: an invitation is on its way. They join when they sign up.` : `${email} is a member.`;
}

/** `onClose(changed)`: whether anything changed, so the page can show the new member count. */
export function MembersDialog({ workspaceId, csrfToken, onClose }: { workspaceId: string; csrfToken: string; onClose(changed: boolean): void }) {
  const load = useCallback(() => membersApi.state(workspaceId), [workspaceId]);
  const { state, busy, notice, problem, change: changeState, fail } = useServerState<WorkspaceMembersState>(load);
  const [changed, setChanged] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [name, setName] = useState<string | null>(null);
  const change = async (run: () => Promise<string | null>) => {
    const done = await changeState(run);
    if (done) setChanged(true);
    return done;
  };

  const leave = async () => {
    if (!state) return;
    setLeaving(true);
    try {
      await membersApi.remove(workspaceId, csrfToken, state.you);
      window.location.assign('/app');
    } catch (error) {
      fail(error);
      setLeaving(false);
    }
  };

  return (
    <Modal title={state ? `Members of “${state.name}”` : 'Members'} onClose={() => onClose(changed)}>
      <StatusLines notice={notice} problem={problem} />
      {state === null ? (
        !problem && <p className="db-muted">Loading…</p>
      ) : (
        <>
          {state.role === 'admin' && (
            <form
              className="db-invite db-rename"
              onSubmit={(event) => {
                event.preventDefault();
                const wanted = (name ?? state.name).trim();
                if (wanted && wanted !== state.name) void change(async () => `Renamed to “${(await membersApi.rename(workspaceId, csrfToken, wanted)).name}”.`);
              }}
            >
              <input type="text" name="name" aria-label="Workspace name" maxLength={200} value={name ?? state.name} onChange={(event) => setName(event.target.value)} disabled={busy || leaving} />
              <button type="submit" className="db-button" disabled={busy || leaving}>
                Rename
              </button>
            </form>
          )}
          <PeopleEditor
            roles={WORKSPACE_ROLES}
            people={state.members}
            invitations={state.invitations}
            canManage={state.role === 'admin'}
            you={state.you}
            busy={busy || leaving}
            onInvite={(email, role) => change(async () => inviteNotice(await membersApi.invite(workspaceId, csrfToken, email, role), email))}
            onChangeRole={(userId, role) => void change(async () => (await membersApi.changeRole(workspaceId, csrfToken, userId, role), null))}
            onRemove={(person) =>
              person.userId === state.you ? void leave() : void change(async () => (await membersApi.remove(workspaceId, csrfToken, person.userId), `${person.email} is no longer a member.`))
            }
            onCancelInvitation={(invitation) => void change(async () => (await sharingApi.cancelInvitation(invitation.id, csrfToken), `The invitation of ${invitation.email} is cancelled.`))}
          />
          <p className="db-hint">
            Viewers see the workspace's diagrams; editors also change them and move their own diagrams in; admins also manage the members. A diagram's owner alone shares, publishes, moves or deletes it.
          </p>
          <div className="db-dialog-actions">
            <button type="button" className="db-button db-button-quiet" disabled={busy || leaving} onClick={() => void leave()}>
              Leave workspace
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}

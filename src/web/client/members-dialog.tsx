/**
 * A workspace's members, on the dashboard: everyone in it sees who is there
 * and may leave; admins invite by email, change roles and remove members.
 * The server holds the rules (the API's): a workspace keeps at least one
 * admin, so the last one can neither leave nor be demoted.
 */
import { useCallback, useEffect, useState } from 'react';
import { Modal } from './modal.tsx';
import { PeopleEditor } from './people-editor.tsx';
import { failureMessage, type InviteOutcome, membersApi, sharingApi, type WorkspaceMembersState, type WorkspaceRole } from './sharing-api.ts';

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
  const [state, setState] = useState<WorkspaceMembersState | null>(null);
  const [busy, setBusy] = useState(false);
  const [changed, setChanged] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const reload = useCallback(async () => setState(await membersApi.state(workspaceId)), [workspaceId]);
  useEffect(() => {
    reload().catch((error: unknown) => setProblem(failureMessage(error)));
  }, [reload]);

  const change = async (run: () => Promise<string | null>): Promise<boolean> => {
    setBusy(true);
    setProblem(null);
    setNotice(null);
    try {
      setNotice(await run());
      setChanged(true);
      await reload();
      return true;
    } catch (error) {
      setProblem(failureMessage(error));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const leave = async () => {
    if (!state) return;
    setBusy(true);
    setProblem(null);
    try {
      await membersApi.remove(workspaceId, csrfToken, state.you);
      window.location.assign('/app');
    } catch (error) {
      setProblem(failureMessage(error));
      setBusy(false);
    }
  };

  return (
    <Modal title={state ? `Members of “${state.name}”` : 'Members'} onClose={() => onClose(changed)}>
      {problem && (
        <p className="db-dialog-error" role="alert">
          {problem}
        </p>
      )}
      {notice && (
        <p className="db-dialog-notice" role="status">
          {notice}
        </p>
      )}
      {state === null ? (
        !problem && <p className="db-muted">Loading…</p>
      ) : (
        <>
          <PeopleEditor
            roles={WORKSPACE_ROLES}
            people={state.members}
            invitations={state.invitations}
            canManage={state.role === 'admin'}
            you={state.you}
            busy={busy}
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
            <button type="button" className="db-button db-button-quiet" disabled={busy} onClick={() => void leave()}>
              Leave workspace
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}

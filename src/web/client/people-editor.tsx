/**
 * Who has access to a diagram or a workspace, with their roles: change a
 * role, remove someone, cancel an invitation, invite by email. Used by the
 * share dialog (viewer, editor) and the workspace members dialog (viewer,
 * editor, admin). Read-only when the person looking may not manage it.
 */
import { type FormEvent, useState } from 'react';
import type { Invitation, Person } from './sharing-api.ts';

export interface PeopleEditorProps<Role extends string> {
  /** The roles offered, in order, with their words. */
  roles: readonly { value: Role; label: string }[];
  /** The first row, who cannot be changed (a diagram's owner). */
  owner?: { email: string; label: string };
  people: readonly Person<Role>[];
  invitations: readonly Invitation<Role>[];
  canManage: boolean;
  /** The signed-in person's id: their own row says "you". */
  you?: string;
  busy: boolean;
  onInvite(email: string, role: Role): Promise<boolean>;
  onChangeRole(userId: string, role: Role): void;
  onRemove(person: Person<Role>): void;
  onCancelInvitation(invitation: Invitation<Role>): void;
}

export function PeopleEditor<Role extends string>(props: PeopleEditorProps<Role>) {
  const { roles, owner, people, invitations, canManage, you, busy } = props;
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>(roles[0]!.value);
  const label = (value: Role) => roles.find((r) => r.value === value)?.label ?? value;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await props.onInvite(email.trim(), role)) setEmail('');
  };

  return (
    <div className="db-people">
      {canManage && (
        <form className="db-invite" onSubmit={(event) => void submit(event)}>
          <input type="email" required placeholder="name@example.com" aria-label="Email address to invite" value={email} onChange={(event) => setEmail(event.target.value)} />
          <select aria-label="Role for the invitation" value={role} onChange={(event) => setRole(event.target.value as Role)}>
            {roles.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
          <button type="submit" className="db-button db-button-primary" disabled={busy}>
            Invite
          </button>
        </form>
      )}
      <ul className="db-people-list" aria-label="People with access">
        {owner && (
          <li>
            <span className="db-person">{owner.email}</span>
            <span className="db-role-fixed">{owner.label}</span>
          </li>
        )}
        {people.map((person) => (
          <li key={person.userId}>
            <span className="db-person">
              {person.email}
              {person.userId === you && <span className="db-you"> (you)</span>}
            </span>
            {canManage ? (
              <>
                <select aria-label={`Role of ${person.email}`} value={person.role} disabled={busy} onChange={(event) => props.onChangeRole(person.userId, event.target.value as Role)}>
                  {roles.map((r) => (
                    <option key={r.value} value={r.value}>
                      {r.label}
                    </option>
                  ))}
                </select>
                <button type="button" className="db-button db-button-quiet" aria-label={`Remove ${person.email}`} disabled={busy} onClick={() => props.onRemove(person)}>
                  Remove
                </button>
              </>
            ) : (
              <span className="db-role-fixed">{label(person.role)}</span>
            )}
          </li>
        ))}
        {invitations.map((invitation) => (
          <li key={invitation.id} className="db-invited">
            <span className="db-person">
              {invitation.email}
              <span className="db-pending"> · invited, no account yet</span>
            </span>
            <span className="db-role-fixed">{label(invitation.role)}</span>
            {canManage && (
              <button type="button" className="db-button db-button-quiet" aria-label={`Cancel the invitation of ${invitation.email}`} disabled={busy} onClick={() => props.onCancelInvitation(invitation)}>
                Cancel
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

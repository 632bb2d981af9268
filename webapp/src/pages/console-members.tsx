/**
 * Console: members (owner only; /app/api/members, /app/api/invitations).
 * Lists the organization's members; invites one by email (the invitation URL is shown to copy
 * and send: the service sends no mail); removes a member after a confirmation (the owner cannot
 * be removed: 409 conflict, shown in the banner; their webhook endpoints are disabled and keys
 * made for them revoked); resets a member's password by a new invitation (roles: a link to send,
 * accepting it sets a new password and signs them out everywhere). Pending invitations (joining
 * and resets; GET /app/api/invitations) are listed and can be withdrawn after a confirmation.
 */
import { useCallback, useEffect, useState } from 'react';
import { ApiFailure, call } from '../api.js';
import { useSignedIn } from '../session.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { useConfirmedAction } from '../ui/confirmed-action.js';
import { CopyButton } from '../ui/copy-button.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { Label } from '../ui/label.js';
import { Field } from '../ui/field.js';
import { fieldErrorsOf } from '../ui/field-errors.js';
import { ListSection } from '../ui/list-section.js';
import { Page } from '../ui/page.js';

/** A member as GET /app/api/members lists it. */
interface Member {
  id: string;
  name: string;
  email: string;
  role: 'owner' | 'member';
  joined_at: string;
}

/** Answer of POST /app/api/invitations and POST /app/api/members/:id/password-reset. */
interface Invitation {
  id: string;
  url: string;
  token: string;
  email: string;
  role: string;
  expires_at: string;
  purpose?: 'password_reset' | null;
}

/** A pending invitation as GET /app/api/invitations lists it. */
interface PendingInvitation {
  id: string;
  email: string;
  role: 'owner' | 'member';
  purpose: 'password_reset' | null;
  invited_at: string;
  expires_at: string;
  invited_by: { id: string; name: string };
}

/** The members page: heading "Members", form "Invite a member" (field "Email", button "Invite"), table "Members of …". */
export function MembersPage() {
  const session = useSignedIn();
  const [members, setMembers] = useState<Member[] | null>(null);
  const [listError, setListError] = useState<unknown>(null);
  const [email, setEmail] = useState('');
  const [inviteError, setInviteError] = useState<unknown>(null);
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const [removeError, setRemoveError] = useState<unknown>(null);
  const [pending, setPending] = useState<PendingInvitation[] | null>(null);
  const [pendingError, setPendingError] = useState<unknown>(null);

  const loadPending = useCallback(() => {
    call<{ data: PendingInvitation[] }>('GET', '/app/api/invitations').then((r) => {
      setPending(r.data);
      setPendingError(null);
    }, setPendingError);
  }, []);
  const load = useCallback(() => {
    call<{ data: Member[] }>('GET', '/app/api/members').then((r) => {
      setMembers(r.data);
      setListError(null);
    }, setListError);
    loadPending();
  }, [loadPending]);
  useEffect(load, [load]);

  const withdrawing = useConfirmedAction<PendingInvitation>({
    act: async (i) => {
      await call('DELETE', `/app/api/invitations/${encodeURIComponent(i.id)}`);
      if (invitation?.id === i.id) setInvitation(null);
    },
    report: setPendingError,
    after: loadPending,
  });
  const resetting = useConfirmedAction<Member>({
    act: async (m) =>
      setInvitation(await call<Invitation>('POST', `/app/api/members/${encodeURIComponent(m.id)}/password-reset`)),
    report: setRemoveError,
    after: loadPending,
  });
  const removing = useConfirmedAction<Member>({
    act: async (m) => {
      await call('DELETE', `/app/api/members/${encodeURIComponent(m.id)}`);
    },
    report: setRemoveError,
    after: load,
  });

  const errors =
    inviteError instanceof ApiFailure
      ? fieldErrorsOf(inviteError.details, ['email', 'role'])
      : { byField: {} as Record<string, string[]>, other: [] };
  const invitationUrl = invitation ? new URL(invitation.url, window.location.origin).toString() : '';

  return (
    <Page title="Members">
      <section aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite a member</h2>
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            setInviteError(null);
            try {
              setInvitation(
                await call<Invitation>('POST', '/app/api/invitations', { email: email.trim(), role: 'member' }),
              );
              setEmail('');
              loadPending();
            } catch (err) {
              setInviteError(err);
            }
          }}
        >
          <Field
            label="Email"
            hint="Members use the playground, jobs and saved data; only the owner manages keys, members and the account."
            errors={errors.byField['email']}
          >
            {(a) => <input {...a} type="email" value={email} onChange={(e) => setEmail(e.target.value)} />}
          </Field>
          <ErrorBanner error={inviteError} details={errors.other} />
          <div className="form-buttons">
            <button type="submit">Invite</button>
          </div>
        </form>
        {invitation ? (
          <div className="notice" role="region" aria-label="Invitation link">
            <p>
              Send this link to <strong>{invitation.email}</strong>
              {invitation.purpose === 'password_reset' ? ' to set a new password' : ''}; it works once, until{' '}
              {new Date(invitation.expires_at).toLocaleString()}.
            </p>
            <code className="secret" aria-label="Invitation URL">
              {invitationUrl}
            </code>
            <CopyButton text={invitationUrl} label="Copy invitation link" />
          </div>
        ) : null}
      </section>
      <ListSection
        id="members-heading"
        title={
          <>
            Members of <Label text={session.organization.name} />
          </>
        }
        error={listError ?? removeError}
        rows={members}
        columns={['Name', 'Email', 'Role', 'Joined', 'Actions']}
        row={(m) => (
          <tr key={m.id}>
            <th scope="row">
              <Label text={m.name} />
            </th>
            <td>{m.email}</td>
            <td>{m.role}</td>
            <td>{m.joined_at ? new Date(m.joined_at).toLocaleDateString() : ''}</td>
            <td className="actions">
              {m.role === 'owner' ? null : (
                <>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Reset the password of ${m.name}`}
                    onClick={() => resetting.ask(m)}
                  >
                    Reset password
                  </button>{' '}
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Remove ${m.name}`}
                    onClick={() => removing.ask(m)}
                  >
                    Remove
                  </button>
                </>
              )}
            </td>
          </tr>
        )}
      />
      <ListSection
        id="pending-heading"
        title="Pending invitations"
        error={pendingError}
        rows={pending}
        empty="No pending invitations."
        columns={['Email', 'For', 'Invited', 'Expires', 'Actions']}
        row={(i) => (
          <tr key={i.id}>
            <th scope="row">{i.email}</th>
            <td>{i.purpose === 'password_reset' ? 'password reset' : `joining as ${i.role}`}</td>
            <td>
              {new Date(i.invited_at).toLocaleString()} by {i.invited_by.name}
            </td>
            <td>{new Date(i.expires_at).toLocaleString()}</td>
            <td className="actions">
              <button
                type="button"
                className="danger"
                aria-label={`Withdraw the invitation of ${i.email}`}
                onClick={() => withdrawing.ask(i)}
              >
                Withdraw
              </button>
            </td>
          </tr>
        )}
      />
      <ConfirmDialog
        open={withdrawing.asking !== null}
        title={`Withdraw the invitation of ${withdrawing.asking?.email ?? ''}?`}
        confirmLabel="Withdraw invitation"
        onCancel={withdrawing.cancel}
        onConfirm={withdrawing.confirm}
      >
        <p>Its link stops working at once.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={resetting.asking !== null}
        danger={false}
        title={`Reset the password of ${resetting.asking?.name ?? ''}?`}
        confirmLabel="Create reset link"
        onCancel={resetting.cancel}
        onConfirm={resetting.confirm}
      >
        <p>
          You get a link to send them. Their current password works until they use it; then it sets a new one and signs
          them out everywhere.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={removing.asking !== null}
        title={`Remove ${removing.asking?.name ?? ''}?`}
        confirmLabel="Remove member"
        onCancel={removing.cancel}
        onConfirm={removing.confirm}
      >
        <p>
          They are signed out and can no longer sign in to this organization. Their saved data and jobs stay; webhook
          endpoints they created are disabled and API keys made for them are revoked.
        </p>
      </ConfirmDialog>
    </Page>
  );
}

/**
 * Console: API keys (owner only; /app/api/keys). Lists the keys (name,
 * prefix, scopes, created, expires, IP allowlist, state, creator); creates one (name, scope
 * checkboxes all ticked by default, optional expiry and IP allowlist) and shows its secret once
 * with a copy button and a warning; rotates a key (the new secret shown once, the old one stops at
 * once) and revokes one after a confirmation.
 */
import { useCallback, useEffect, useState } from 'react';
import { ApiFailure, call } from '../api.js';
import { emptyKeyForm, KEY_FIELDS, keyRequestOf, SCOPES, type KeyForm, type Scope } from '../console/key-request.js';
import { SecretOnce } from '../console/secret-once.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { useConfirmedAction } from '../ui/confirmed-action.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { Field } from '../ui/field.js';
import { fieldErrorsOf } from '../ui/field-errors.js';
import { ListSection } from '../ui/list-section.js';
import { Page } from '../ui/page.js';

/** A key as GET /app/api/keys lists it. */
interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  created_at: string;
  expires_at: string | null;
  allowed_ips: string[] | null;
  revoked: boolean;
  created_by: { id: string; name: string } | null;
}

/** A secret to show once: which key and why. */
interface Shown {
  key: ApiKey;
  secret: string;
  rotated: boolean;
}

/** The API keys page: heading "API keys", form "Create a key", table "Keys". */
export function KeysPage() {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [listError, setListError] = useState<unknown>(null);
  const [form, setForm] = useState<KeyForm>(emptyKeyForm);
  const [createError, setCreateError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);

  const load = useCallback(() => {
    call<{ data: ApiKey[] }>('GET', '/app/api/keys').then((r) => {
      setKeys(r.data);
      setListError(null);
    }, setListError);
  }, []);
  useEffect(load, [load]);

  const errors =
    createError instanceof ApiFailure
      ? fieldErrorsOf(createError.details, KEY_FIELDS)
      : { byField: {} as Record<string, string[]>, other: [] };

  const confirming = useConfirmedAction<{ key: ApiKey; action: 'rotate' | 'revoke' }>({
    act: async ({ key, action }) => {
      if (action === 'rotate') {
        // The secret listed is the one replaced: a rotation by someone else since answers 409.
        const r = await call<ApiKey & { secret: string }>(
          'POST',
          `/app/api/keys/${encodeURIComponent(key.id)}/rotate`,
          { prefix: key.prefix },
        );
        setShown({ key: r, secret: r.secret, rotated: true });
      } else {
        await call('DELETE', `/app/api/keys/${encodeURIComponent(key.id)}`);
        if (shown?.key.id === key.id) setShown(null);
      }
    },
    report: setActionError,
    after: load,
  });
  const asking = confirming.asking;

  return (
    <Page title="API keys">
      <p>
        API keys let your servers call the service (<code>Authorization: Bearer …</code>). Keep them on the server side.
        Up to 20 keys may be active.
      </p>
      {shown ? (
        <SecretOnce
          id="secret-heading"
          title={shown.rotated ? `New secret of “${shown.key.name}”` : `Secret of “${shown.key.name}”`}
          secretLabel="Key secret"
          secret={shown.secret}
          note={` The service keeps only a hash.${shown.rotated ? ' The previous secret has stopped working.' : ''}`}
          onDismiss={() => setShown(null)}
        />
      ) : null}

      <section aria-labelledby="create-key-heading">
        <h2 id="create-key-heading">Create a key</h2>
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            setBusy(true);
            setCreateError(null);
            try {
              const r = await call<ApiKey & { secret: string }>('POST', '/app/api/keys', keyRequestOf(form));
              setShown({ key: r, secret: r.secret, rotated: false });
              setForm(emptyKeyForm());
              load();
            } catch (err) {
              setCreateError(err);
            } finally {
              setBusy(false);
            }
          }}
        >
          <Field label="Key name" errors={errors.byField['name']}>
            {(a) => (
              <input
                {...a}
                value={form.name}
                maxLength={255}
                onChange={(e) => setForm({ ...form, name: e.target.value })}
              />
            )}
          </Field>
          <fieldset aria-describedby="scopes-hint">
            <legend>Scopes</legend>
            <p className="hint" id="scopes-hint">
              A key may call only the endpoints of its scopes; all are ticked by default.
            </p>
            <div className="form-grid">
              {SCOPES.map((s) => (
                <Field key={s} label={s} inline>
                  {(a) => (
                    <input
                      {...a}
                      type="checkbox"
                      checked={form.scopes.includes(s)}
                      onChange={(e) =>
                        setForm({
                          ...form,
                          scopes: e.target.checked ? [...form.scopes, s] : form.scopes.filter((x) => x !== s),
                        })
                      }
                    />
                  )}
                </Field>
              ))}
            </div>
            {errors.byField['scopes'] ? (
              <p className="field-error">Error: {errors.byField['scopes'].join('; ')}</p>
            ) : null}
          </fieldset>
          <div className="form-grid">
            <Field
              label="Expires on (optional)"
              hint="The key works through the end of this day (UTC)."
              errors={errors.byField['expires_at']}
            >
              {(a) => (
                <input
                  {...a}
                  type="date"
                  value={form.expiresOn}
                  onChange={(e) => setForm({ ...form, expiresOn: e.target.value })}
                />
              )}
            </Field>
            <Field
              label="Allowed IPs (optional)"
              hint="IPs or CIDR ranges, separated by commas; empty = any address."
              errors={errors.byField['allowed_ips']}
            >
              {(a) => (
                <input
                  {...a}
                  value={form.allowedIps}
                  placeholder="203.0.113.7, 10.0.0.0/8"
                  onChange={(e) => setForm({ ...form, allowedIps: e.target.value })}
                />
              )}
            </Field>
          </div>
          <ErrorBanner error={createError} details={errors.other} />
          <div className="form-buttons">
            <button type="submit" disabled={busy}>
              Create key
            </button>
          </div>
        </form>
      </section>

      <ListSection
        id="keys-heading"
        title="Keys"
        error={listError ?? actionError}
        rows={keys}
        empty="No keys yet."
        columns={['Name', 'Prefix', 'Scopes', 'Created', 'Expires', 'Allowed IPs', 'State', 'Actions']}
        row={(k) => (
          <tr key={k.id}>
            <th scope="row">{k.name}</th>
            <td>
              <code>{k.prefix}…</code>
            </td>
            <td>{k.scopes.length === SCOPES.length ? 'all' : k.scopes.join(', ')}</td>
            <td>
              {new Date(k.created_at).toLocaleDateString()}
              {k.created_by ? ` by ${k.created_by.name}` : ''}
            </td>
            <td>{k.expires_at ? new Date(k.expires_at).toLocaleString() : 'never'}</td>
            <td>{k.allowed_ips?.length ? k.allowed_ips.join(', ') : 'any'}</td>
            <td>
              {k.revoked ? <span className="badge revoked">revoked</span> : <span className="badge">active</span>}
            </td>
            <td className="actions">
              {k.revoked ? null : (
                <>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Rotate ${k.name}`}
                    onClick={() => confirming.ask({ key: k, action: 'rotate' })}
                  >
                    Rotate
                  </button>{' '}
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Revoke ${k.name}`}
                    onClick={() => confirming.ask({ key: k, action: 'revoke' })}
                  >
                    Revoke
                  </button>
                </>
              )}
            </td>
          </tr>
        )}
      />
      <ConfirmDialog
        open={asking !== null}
        title={asking?.action === 'rotate' ? `Rotate “${asking.key.name}”?` : `Revoke “${asking?.key.name ?? ''}”?`}
        confirmLabel={asking?.action === 'rotate' ? 'Rotate key' : 'Revoke key'}
        onCancel={confirming.cancel}
        onConfirm={confirming.confirm}
      >
        <p>
          {asking?.action === 'rotate'
            ? 'A new secret is issued with the same settings and the current secret stops working at once.'
            : 'Calls with this key are refused from now on. This cannot be undone.'}
        </p>
      </ConfirmDialog>
    </Page>
  );
}

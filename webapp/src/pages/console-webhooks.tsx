/**
 * Console: webhooks (roles, owner only; /v1/webhook_endpoints through the session). Lists the
 * organization's endpoints (URL, events, created by and when, status: an endpoint whose creator
 * was removed shows "disabled: its creator was removed"); registers one (URL and event
 * checkboxes) and shows its signing secret once with a copy button; deletes one after a
 * confirmation; shows an endpoint's recent deliveries (event, job, status, attempts, last answer)
 * with "Show more" paging.
 */
import { useCallback, useEffect, useState } from 'react';
import { ApiFailure, call } from '../api.js';
import { SecretOnce } from '../console/secret-once.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { useConfirmedAction } from '../ui/confirmed-action.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { Field } from '../ui/field.js';
import { fieldErrorsOf } from '../ui/field-errors.js';
import { ListSection } from '../ui/list-section.js';
import { Page } from '../ui/page.js';

/** The event kinds an endpoint can subscribe to (domain/webhook/event-kinds.ts), with what each means. */
export const WEBHOOK_EVENTS = [
  { kind: 'job.succeeded', label: 'job.succeeded: a job finished with a plan' },
  { kind: 'job.failed', label: 'job.failed: a job ended with an error' },
  { kind: 'job.canceled', label: 'job.canceled: a job was canceled' },
] as const;
type EventKind = (typeof WEBHOOK_EVENTS)[number]['kind'];

/** An endpoint as GET /v1/webhook_endpoints lists it. */
interface Endpoint {
  id: string;
  url: string;
  events: EventKind[];
  status: 'active' | 'disabled';
  disabled_reason: 'creator_removed' | null;
  disabled_at: string | null;
  created_at: string;
  created_by: { id: string; name: string };
}

/** One delivery of GET /v1/webhook_endpoints/{id}/deliveries. */
interface Delivery {
  id: string;
  event_id: string;
  type: EventKind;
  job_id: string;
  status: 'pending' | 'succeeded' | 'failed' | 'dropped';
  attempts: {
    attempt: number;
    attempted_at: string;
    status_code: number | null;
    error: string | null;
    succeeded: boolean;
  }[];
  next_attempt_at: string | null;
  created_at: string;
}

const DISABLED_BECAUSE: Record<NonNullable<Endpoint['disabled_reason']>, string> = {
  creator_removed: 'its creator was removed',
};

/** The status cell's words: "active", or "disabled: <why>". */
export const endpointStatusText = (e: Pick<Endpoint, 'status' | 'disabled_reason'>): string =>
  e.status === 'active'
    ? 'active'
    : `disabled: ${e.disabled_reason ? DISABLED_BECAUSE[e.disabled_reason] : 'nothing is sent to it'}`;

/** The last attempt of a delivery in words: "HTTP 200", the error, or "not tried yet". */
function lastAnswer(d: Delivery): string {
  const last = d.attempts[d.attempts.length - 1];
  if (!last) return 'not tried yet';
  return last.status_code !== null ? `HTTP ${last.status_code}` : (last.error ?? 'no answer');
}

/** The deliveries of one endpoint, newest first, 20 at a time. */
function Deliveries({ endpoint }: { endpoint: Endpoint }) {
  const [rows, setRows] = useState<Delivery[] | null>(null);
  const [cursor, setCursor] = useState('');
  const [error, setError] = useState<unknown>(null);
  const load = useCallback(
    (after: string) => {
      const q = new URLSearchParams({ limit: '20', ...(after ? { cursor: after } : {}) });
      call<{ data: Delivery[]; next_cursor: string }>(
        'GET',
        `/v1/webhook_endpoints/${encodeURIComponent(endpoint.id)}/deliveries?${q}`,
      ).then((r) => {
        setRows((before) => (after && before ? [...before, ...r.data] : r.data));
        setCursor(r.next_cursor);
        setError(null);
      }, setError);
    },
    [endpoint.id],
  );
  useEffect(() => load(''), [load]);
  return (
    <ListSection
      id={`deliveries-${endpoint.id}`}
      level={3}
      title={`Recent deliveries to ${endpoint.url}`}
      className="deliveries"
      error={error}
      rows={rows}
      empty="Nothing sent yet."
      columns={['Event', 'Job', 'Status', 'Attempts', 'Last answer', 'Created']}
      row={(d) => (
        <tr key={d.id}>
          <th scope="row">{d.type}</th>
          <td>
            <code>{d.job_id}</code>
          </td>
          <td>{d.status}</td>
          <td>{d.attempts.length}</td>
          <td>{lastAnswer(d)}</td>
          <td>{new Date(d.created_at).toLocaleString()}</td>
        </tr>
      )}
    >
      {cursor ? (
        <button type="button" className="secondary" onClick={() => load(cursor)}>
          Show more deliveries
        </button>
      ) : null}
    </ListSection>
  );
}

/** The webhooks page: heading "Webhooks", form "Add an endpoint", table "Endpoints". */
export function WebhooksPage() {
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(null);
  const [listError, setListError] = useState<unknown>(null);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventKind[]>(WEBHOOK_EVENTS.map((e) => e.kind));
  const [createError, setCreateError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<{ endpoint: Endpoint; secret: string } | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [open, setOpen] = useState<Endpoint | null>(null);

  const load = useCallback(() => {
    call<{ data: Endpoint[] }>('GET', '/v1/webhook_endpoints?limit=100').then((r) => {
      setEndpoints(r.data);
      setListError(null);
    }, setListError);
  }, []);
  useEffect(load, [load]);

  const deleting = useConfirmedAction<Endpoint>({
    act: async (e) => {
      await call('DELETE', `/v1/webhook_endpoints/${encodeURIComponent(e.id)}`);
      if (open?.id === e.id) setOpen(null);
      if (shown?.endpoint.id === e.id) setShown(null);
    },
    report: setActionError,
    after: load,
  });

  const errors =
    createError instanceof ApiFailure
      ? fieldErrorsOf(createError.details, ['url', 'events'])
      : { byField: {} as Record<string, string[]>, other: [] };

  return (
    <Page title="Webhooks">
      <p>
        A webhook endpoint receives a signed POST when a job of the organization succeeds, fails or is canceled (with
        the job and its plan links). Check the <code>Packing-Signature</code> header with the endpoint's secret.
      </p>
      {shown ? (
        <SecretOnce
          id="webhook-secret-heading"
          title={`Signing secret of ${shown.endpoint.url}`}
          secretLabel="Signing secret"
          secret={shown.secret}
          onDismiss={() => setShown(null)}
        />
      ) : null}

      <section aria-labelledby="add-endpoint-heading">
        <h2 id="add-endpoint-heading">Add an endpoint</h2>
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            setBusy(true);
            setCreateError(null);
            try {
              const r = await call<Endpoint & { secret: string }>('POST', '/v1/webhook_endpoints', {
                url: url.trim(),
                events,
              });
              setShown({ endpoint: r, secret: r.secret });
              setUrl('');
              setEvents(WEBHOOK_EVENTS.map((x) => x.kind));
              load();
            } catch (err) {
              setCreateError(err);
            } finally {
              setBusy(false);
            }
          }}
        >
          <Field label="Endpoint URL" hint="https:// (or http://) on a public address." errors={errors.byField['url']}>
            {(a) => (
              <input
                {...a}
                type="url"
                value={url}
                placeholder="https://erp.example.com/hooks/packing"
                onChange={(e) => setUrl(e.target.value)}
              />
            )}
          </Field>
          <fieldset>
            <legend>Events</legend>
            {WEBHOOK_EVENTS.map((x) => (
              <Field key={x.kind} label={x.label} inline>
                {(a) => (
                  <input
                    {...a}
                    type="checkbox"
                    checked={events.includes(x.kind)}
                    onChange={(e) =>
                      setEvents(e.target.checked ? [...events, x.kind] : events.filter((k) => k !== x.kind))
                    }
                  />
                )}
              </Field>
            ))}
            {errors.byField['events'] ? (
              <p className="field-error">Error: {errors.byField['events'].join('; ')}</p>
            ) : null}
          </fieldset>
          <ErrorBanner error={createError} details={errors.other} />
          <div className="form-buttons">
            <button type="submit" disabled={busy}>
              Add endpoint
            </button>
          </div>
        </form>
      </section>

      <ListSection
        id="endpoints-heading"
        title="Endpoints"
        error={listError ?? actionError}
        rows={endpoints}
        empty="No endpoints yet."
        columns={['URL', 'Events', 'Created', 'Status', 'Actions']}
        row={(e) => (
          <tr key={e.id}>
            <th scope="row">
              <code>{e.url}</code>
            </th>
            <td>{e.events.join(', ')}</td>
            <td>
              {new Date(e.created_at).toLocaleDateString()} by {e.created_by.name}
            </td>
            <td>
              {e.status === 'active' ? (
                <span className="badge">active</span>
              ) : (
                <span className="badge revoked">{endpointStatusText(e)}</span>
              )}
            </td>
            <td className="actions">
              <button
                type="button"
                className="secondary"
                aria-label={`Deliveries of ${e.url}`}
                aria-pressed={open?.id === e.id}
                onClick={() => setOpen(open?.id === e.id ? null : e)}
              >
                Deliveries
              </button>{' '}
              <button type="button" className="danger" aria-label={`Delete ${e.url}`} onClick={() => deleting.ask(e)}>
                Delete
              </button>
            </td>
          </tr>
        )}
      >
        {open ? <Deliveries key={open.id} endpoint={open} /> : null}
      </ListSection>
      <ConfirmDialog
        open={deleting.asking !== null}
        title={`Delete the endpoint ${deleting.asking?.url ?? ''}?`}
        confirmLabel="Delete endpoint"
        onCancel={deleting.cancel}
        onConfirm={deleting.confirm}
      >
        <p>Nothing more is sent to it; deliveries waiting for a retry are dropped. This cannot be undone.</p>
      </ConfirmDialog>
    </Page>
  );
}

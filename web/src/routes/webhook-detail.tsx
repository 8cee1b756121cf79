import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { dashboardPath } from '@hop/shared/dashboard-paths';
import { EVENT_TYPES } from '@hop/shared/events';
import { UpdateWebhookBodySchema } from '@hop/shared/webhooks';
import type { Delivery, EventType, Workspace } from '@hop/shared';
import { check } from '../form-errors.js';
import { useDeliveries, useWebhook, useWebhookActions } from '../queries/webhooks.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Empty, Loading } from '../components/states.js';
import { SecretOnce } from '../components/secret-once.js';
import { Field } from '../components/field.js';
import { DataTable } from '../components/data-table.js';
import { useConfirm } from '../components/confirm.js';

function Attempts({ d }: { d: Delivery }) {
  if (!d.attempts.length) return <span className="hint">no attempt yet</span>;
  return (
    <ol className="attempts">
      {d.attempts.map((a) => (
        <li key={a.number}>#{a.number} {new Date(a.at).toLocaleString()}: {a.statusCode ?? 'no answer'} in {a.durationMs} ms{a.error ? ` (${a.error})` : ''}</li>
      ))}
    </ol>
  );
}

function WebhookDetail({ workspace }: { workspace: Workspace }) {
  const confirm = useConfirm();
  const { webhookId = '' } = useParams();
  const navigate = useNavigate();
  /** What the last action said: a failed test is news as bad as an error, and shown as one. */
  const [status, setStatus] = useState<{ text: string; failed?: boolean } | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const hook = useWebhook(workspace.id, webhookId);
  const deliveries = useDeliveries(workspace.id, webhookId);
  const actions = useWebhookActions(workspace.id, webhookId);
  const said = (text: string, failed = false) => () => setStatus({ text, failed });
  const run = <V, R>(m: { mutate: (v: V, o: { onSuccess: (r: R) => void; onError: (e: unknown) => void }) => void }, v: V, onSuccess: (r: R) => void) => {
    setError(null);
    setStatus(null);
    m.mutate(v, { onSuccess, onError: setError });
  };
  const test = () => run(actions.test, undefined, (data) => setStatus({
    text: `Test event: ${data.success ? 'delivered' : 'failed'}, ${data.statusCode ?? 'no answer'} in ${data.durationMs} ms${data.error ? ` (${data.error})` : ''}`,
    failed: !data.success,
  }));
  if (hook.isLoading) return <Loading what="Loading webhook" />;
  if (!hook.data) return <ErrorAlert error={hook.error} />;
  const w = hook.data;
  return (
    <Page title="Webhook">
      <dl className="facts">
        <dt>URL</dt><dd>{w.url}</dd>
        {w.description ? <><dt>Description</dt><dd>{w.description}</dd></> : null}
        <dt>Events</dt><dd>{w.events.join(', ')}</dd>
        <dt>State</dt><dd>{w.isActive ? 'enabled' : `disabled${w.disabledAt ? ` since ${new Date(w.disabledAt).toLocaleString()}` : ''}`}; {w.consecutiveFailures} failures in a row</dd>
      </dl>
      <div className="inline">
        <button type="button" onClick={test} disabled={actions.test.isPending}>Send test event</button>
        {w.isActive
          ? <button type="button" className="secondary" onClick={() => run(actions.update, { isActive: false }, said('Disabled.'))}>Disable</button>
          : <button type="button" className="secondary" onClick={() => run(actions.enable, undefined, said('Enabled.'))}>Enable</button>}
        <button type="button" className="danger" onClick={() => void confirm({ message: 'Delete this webhook? Its deliveries stop.', action: 'Delete webhook' }).then((yes) => { if (yes) run(actions.remove, undefined, () => navigate(dashboardPath('webhooks', { ws: workspace.slug }))); })}>Delete webhook</button>
      </div>
      <form className="card" onSubmit={(e) => {
        e.preventDefault();
        const checked = check(UpdateWebhookBodySchema, { events: new FormData(e.currentTarget).getAll('events') });
        if (!checked.data) return setError(new Error(`Events: ${Object.values(checked.errors)[0]}`));
        run(actions.update, { events: checked.data.events as EventType[] }, said('Events saved.'));
      }}>
        <fieldset className="checks">
          <legend className="fieldset-label">Events</legend>
          {EVENT_TYPES.map((t) => <label key={t}><input type="checkbox" name="events" value={t} defaultChecked={w.events.includes(t)} /> {t}</label>)}
        </fieldset>
        <button type="submit" className="secondary">Save events</button>
      </form>
      <form className="inline card" onSubmit={(e) => { e.preventDefault(); const grace = Number(new FormData(e.currentTarget).get('grace') || 0); run(actions.rotate, grace, (data) => setSecret(data.secret)); }}>
        <Field label="Old secret stays valid for (seconds)" name="grace" type="number" min={0} max={86400} defaultValue={3600} />
        <button type="submit" className="secondary">Rotate secret</button>
      </form>
      {secret ? <SecretOnce label="New signing secret" value={secret} /> : null}
      {status ? <p role="status" className={status.failed ? 'status-failed' : 'status-ok'}>{status.text}</p> : null}
      <ErrorAlert error={error} />
      <h2>Deliveries</h2>
      <ErrorAlert error={deliveries.error} />
      {deliveries.data?.length === 0 ? <Empty><p>No deliveries yet.</p></Empty> : null}
      {deliveries.data?.length ? (
        <DataTable label="Deliveries" rows={deliveries.data} rowKey={(d) => d.id} columns={[
          { key: 'event', header: 'Event', phone: 'title', cell: (d) => <>{d.eventType}<div className="hint">{d.id}</div></> },
          { key: 'status', header: 'Status', cell: (d) => <>{d.status}{d.nextAttemptAt ? <div className="hint">next {new Date(d.nextAttemptAt).toLocaleTimeString()}</div> : null}</> },
          { key: 'attempts', header: 'Attempts', phone: 'wide', cell: (d) => <Attempts d={d} /> },
          { key: 'actions', header: '', label: 'Actions', phone: 'unlabelled', cell: (d) => (d.status !== 'pending' ? <button type="button" className="link-button" onClick={() => run(actions.retry, d.id, said('Retry queued.'))}>Retry</button> : null) },
        ]} />
      ) : null}
    </Page>
  );
}

export default function WebhookDetailPage() {
  return <WithWorkspace>{(ws) => <WebhookDetail workspace={ws} />}</WithWorkspace>;
}

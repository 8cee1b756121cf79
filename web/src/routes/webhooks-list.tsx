import { useState } from 'react';
import { Link } from 'react-router';
import { maySeeBilling, roleMayCall } from '@hop/shared/access';
import { dashboardPath } from '@hop/shared/dashboard-paths';
import { EVENT_TYPES } from '@hop/shared/events';
import { featuresOf, GATED_FEATURES } from '@hop/shared/plans';
import { CreateWebhookBodySchema } from '@hop/shared/webhooks';
import type { CreatedWebhook, Workspace } from '@hop/shared';
import { useCreateWebhook, useWebhooks } from '../queries/webhooks.js';
import { useCheckedForm } from '../use-checked-form.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { Field } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Empty, Loading } from '../components/states.js';
import { SecretOnce } from '../components/secret-once.js';

function CreateWebhookForm({ workspace, onCreated }: { workspace: Workspace; onCreated: (w: CreatedWebhook) => void }) {
  const { onSubmit, errors, alert, busy } = useCheckedForm(CreateWebhookBodySchema, {
    read: (f) => {
      const description = String(f.get('description') ?? '').trim();
      return { url: f.get('url'), events: f.getAll('events'), ...(description ? { description } : {}) };
    },
    mutation: useCreateWebhook(workspace.id),
    onSuccess: onCreated,
  });
  return (
    <form onSubmit={onSubmit} noValidate className="card">
      <h2>Add an endpoint</h2>
      <Field label="Endpoint URL" name="url" type="url" required error={errors.url} hint="HTTPS, reachable from the Hop server." />
      <Field label="Description" name="description" error={errors.description} />
      <fieldset className="checks">
        <legend className="fieldset-label">Events</legend>
        {EVENT_TYPES.map((t) => <label key={t}><input type="checkbox" name="events" value={t} defaultChecked={t === 'link.created'} /> {t}</label>)}
      </fieldset>
      {errors.events ? <p role="alert" className="field-error">Events: {errors.events}</p> : null}
      <ErrorAlert error={alert} />
      <button type="submit" disabled={busy}>Create webhook</button>
    </form>
  );
}

function Webhooks({ workspace }: { workspace: Workspace }) {
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const list = useWebhooks(workspace.id);
  if (!roleMayCall(workspace.role, 'listWebhooks')) return <div role="alert" className="alert">Only admins and owners manage webhooks.</div>;
  return (
    <>
      {created ? <SecretOnce label="Signing secret" value={created.secret} /> : null}
      <ErrorAlert error={list.error} />
      {list.isLoading ? <Loading what="Loading webhooks" /> : null}
      {list.data?.length === 0 ? <Empty><p>No webhooks yet. Hop can POST signed events (link.created, link.clicked, ...) to your endpoint.</p></Empty> : null}
      {list.data?.length ? (
        <ul className="cards">
          {list.data.map((w) => (
            <li key={w.id} className="card">
              <Link to={dashboardPath('webhook', { ws: workspace.slug, webhookId: w.id })} className="truncate block-link">{w.url}</Link>
              {w.description ? <div>{w.description}</div> : null}
              <div className="hint">{w.isActive ? 'enabled' : 'disabled'} · {w.events.join(', ')}</div>
            </li>
          ))}
        </ul>
      ) : null}
      {featuresOf(workspace.plan).includes('webhooks') ? <CreateWebhookForm workspace={workspace} onCreated={setCreated} /> : (
        // Said before the form is filled in, not as the TIER_REQUIRED answer to it.
        <div role="note" className="card upgrade">
          <h2>Webhooks need the {GATED_FEATURES.webhooks} plan</h2>
          <p>This workspace is on the {workspace.plan} plan.{' '}
            {maySeeBilling(workspace.role) ? <Link to={dashboardPath('billing', { ws: workspace.slug })}>See plans and billing</Link> : 'Ask an owner to upgrade it.'}</p>
        </div>
      )}
    </>
  );
}

export default function WebhooksPage() {
  return <WithWorkspace>{(ws) => <Page title="Webhooks"><Webhooks workspace={ws} /></Page>}</WithWorkspace>;
}

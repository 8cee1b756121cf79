import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Link, UpdateLinkBody, Workspace } from '@hop/shared';
import { useApi } from '../api.js';
import { mayChange } from '@hop/shared';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Loading } from '../components/states.js';
import { CopyButton } from '../components/copy-button.js';
import { LinkForm } from '../components/link-form.js';
import { AnalyticsView, RangePicker, type Range } from '../components/analytics-view.js';
import { LinkQrCodes } from '../components/link-qr-codes.js';

function LinkAnalytics({ workspace, link }: { workspace: Workspace; link: Link }) {
  const api = useApi();
  const [range, setRange] = useState<Range>({ days: 30 });
  const q = useQuery({
    queryKey: ['link-analytics', link.id, range],
    queryFn: async () => (await api.call('getLinkAnalytics', { params: { workspaceId: workspace.id, linkId: link.id }, query: range })).data,
  });
  return (
    <section aria-labelledby="analytics-heading">
      <h2 id="analytics-heading">Analytics</h2>
      <RangePicker range={range} onChange={setRange} />
      <ErrorAlert error={q.error} />
      {q.isLoading ? <Loading what="Loading analytics" /> : null}
      {q.data ? <AnalyticsView data={q.data} /> : null}
    </section>
  );
}

const mayEdit = (ws: Workspace, link: Link, userId: string | undefined) => mayChange({ role: ws.role, userId }, link);

function LinkDetail({ workspace, userId }: { workspace: Workspace; userId?: string }) {
  const { linkId = '' } = useParams();
  const api = useApi();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const key = ['link', workspace.id, linkId];
  const q = useQuery({ queryKey: key, queryFn: async () => (await api.call('getLink', { params: { workspaceId: workspace.id, linkId } })).data });
  const [deleteError, setDeleteError] = useState<unknown>(null);
  if (q.isLoading) return <Loading what="Loading link" />;
  if (!q.data) return <ErrorAlert error={q.error ?? new Error('No such link')} />;
  const link = q.data;
  const editable = mayEdit(workspace, link, userId);
  const save = async (body: UpdateLinkBody) => {
    const { data } = await api.call('updateLink', { params: { workspaceId: workspace.id, linkId }, body });
    queries.setQueryData(key, data);
    await queries.invalidateQueries({ queryKey: ['links', workspace.id] });
  };
  const remove = async () => {
    if (!window.confirm(`Delete ${link.slug}? Its short URL will stop working.`)) return;
    try {
      await api.call('deleteLink', { params: { workspaceId: workspace.id, linkId } });
      await queries.invalidateQueries({ queryKey: ['links', workspace.id] });
      navigate(dashboardPath('links', { ws: workspace.slug }));
    } catch (err) { setDeleteError(err); }
  };
  return (
    <Page title={link.slug} actions={editable ? <button type="button" className="danger" onClick={() => void remove()}>Delete link</button> : null}>
      <ErrorAlert error={deleteError} />
      <dl className="facts">
        <dt>Short URL</dt><dd><a href={link.shortUrl}>{link.shortUrl}</a> <CopyButton value={link.shortUrl} label="Copy short URL" /></dd>
        <dt>Destination</dt><dd>{link.url}</dd>
        <dt>Status</dt><dd>{link.status.replace('_', ' ')}{link.passwordProtected ? ', password protected' : ''}</dd>
        <dt>Total</dt><dd><span data-testid="link-clicks">{link.clicks}</span> clicks</dd>
      </dl>
      <LinkAnalytics workspace={workspace} link={link} />
      <LinkQrCodes workspace={workspace} link={link} />
      <section aria-labelledby="edit-heading">
        <h2 id="edit-heading">Edit</h2>
        {editable ? <LinkForm key={link.updatedAt} workspace={workspace} link={link} submitLabel="Save changes" onSubmit={(b) => save(b as UpdateLinkBody)} />
          : <p className="hint">Your role cannot change this link.</p>}
      </section>
    </Page>
  );
}

export default function LinkDetailPage() {
  const { session } = useSessionUser();
  return <WithWorkspace>{(ws) => <LinkDetail workspace={ws} userId={session} />}</WithWorkspace>;
}

import { useSession } from '../session.js';
import { dashboardPath } from '@hop/shared';
function useSessionUser() {
  return { session: useSession().session?.user.id };
}

import { Suspense, useDeferredValue, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { mayChange, roleMayCall } from '@hop/shared/access';
import { dashboardPath } from '@hop/shared/dashboard-paths';
import type { Link, UpdateLinkBody, Workspace } from '@hop/shared';
import { useSession } from '../session.js';
import { linkAnalyticsQuery, linkQuery, useCheckLink, useDeleteLink, useLink, useLinkAnalytics, useUpdateLink } from '../queries/links.js';
import { qrCodesQuery, useQrCodes } from '../queries/qr-codes.js';
import { domainsQuery } from '../queries/domains.js';
import type { PageStart } from '../page-start.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Loading } from '../components/states.js';
import { CopyButton } from '../components/copy-button.js';
import { AnalyticsView, RangePicker, type Range } from '../components/analytics-view.js';
import { LinkQrCodes } from '../components/link-qr-codes.js';
import { targetLabel } from '../link-form/targets.js';
import { useConfirm } from '../components/confirm.js';
import { useStaged } from '../components/staged.js';
import { lazyPreloaded } from '../components/lazy-preloaded.js';

// The edit form, below the fold, is drawn after the rest of the page. Its chunk (no zod: the
// form loads its check when first used) is asked for with the page's data (startData), while the
// app waits for the server, so it is in by the time the form is drawn.
const { Component: LinkForm, preload: preloadForm } = lazyPreloaded(() => import('../link-form/link-form.js').then((m) => ({ default: m.LinkForm })));

/** The range the analytics open with. */
const FIRST_RANGE: Range = { days: 30 };

/**
 * Asked for as the app starts on this page, once the workspaces are in (page-start.ts): the link,
 * its analytics and its QR codes, together, so that the server answers them before the page is
 * drawn, not while it is; and the edit form's chunk with the domains its domain select names (asked
 * by the form, they were worked out by the server while the browser laid the form out).
 */
export function startData({ queries, api, workspace, params }: PageStart) {
  const linkId = params.linkId ?? '';
  void queries.prefetchQuery(linkQuery(api, workspace.id, linkId));
  void queries.prefetchQuery(linkAnalyticsQuery(api, workspace.id, linkId, FIRST_RANGE));
  void queries.prefetchQuery(qrCodesQuery(api, workspace.id, linkId));
  void queries.prefetchQuery(domainsQuery(api, workspace.id));
  void preloadForm().catch(() => undefined);
}

function LinkAnalytics({ workspace, link }: { workspace: Workspace; link: Link }) {
  const [range, setRange] = useState<Range>(FIRST_RANGE);
  const q = useLinkAnalytics(workspace.id, link.id, range);
  // Drawn in a transition, as the link is (below), with the placeholder kept until then.
  const data = useDeferredValue(q.data);
  const pending = q.isLoading || data !== q.data;
  return (
    <section aria-labelledby="analytics-heading">
      <h2 id="analytics-heading">Analytics</h2>
      <RangePicker range={range} onChange={setRange} />
      <ErrorAlert error={q.error} />
      {pending ? <div className="pending-block"><Loading what="Loading analytics" /></div> : null}
      {!pending && data ? <AnalyticsView data={data} targetLabel={targetLabel(link)} /> : null}
    </section>
  );
}

const HEALTH_WORDS = { ok: 'OK', redirect: 'Redirects', broken: 'Broken', unreachable: 'Unreachable' } as const;

/** The destination's last check, and a button to check it now (members and up). */
function Health({ workspace, link }: { workspace: Workspace; link: Link }) {
  const check = useCheckLink(workspace.id);
  const h = link.health;
  return (
    <>
      <dt>Destination health</dt>
      <dd data-testid="link-health">
        {h ? <><span className={h.status === 'ok' ? 'health-ok' : h.status === 'redirect' ? '' : 'health-bad'}>{HEALTH_WORDS[h.status]}</span>
          {h.statusCode !== null ? ` (HTTP ${h.statusCode})` : ' (no answer)'}, checked <time dateTime={h.checkedAt}>{new Date(h.checkedAt).toLocaleString()}</time></>
          : 'Not checked yet'}
        {roleMayCall(workspace.role, 'checkLink') ? <>{' '}<button type="button" className="link-button" disabled={check.isPending} onClick={() => check.mutate(link.id)}>Check now</button></> : null}
        <ErrorAlert error={check.error} />
      </dd>
    </>
  );
}

function LinkDetail({ workspace, userId }: { workspace: Workspace; userId?: string }) {
  const confirm = useConfirm();
  const { linkId = '' } = useParams();
  const navigate = useNavigate();
  const q = useLink(workspace.id, linkId);
  // The page is first drawn once its analytics and QR codes are in too, all asked for at once: drawn
  // as each answer arrived, its parts were drawn while the server worked out the next answer, on a
  // machine where both share the CPU. Only their status is watched here (each part reads its own).
  const firstAnalytics = useLinkAnalytics(workspace.id, linkId, FIRST_RANGE, ['status']);
  const firstQrCodes = useQrCodes(workspace.id, linkId, ['status']);
  // Their arrival is a synchronous update too: the page is drawn from a deferred copy of it.
  const othersIn = useDeferredValue(firstAnalytics.status !== 'pending' && firstQrCodes.status !== 'pending');
  // The query's answer arrives as a synchronous update, which would draw the whole page in one long
  // task; the page is drawn from this copy instead, in a transition that React splits into short ones.
  const link = useDeferredValue(q.data);
  const update = useUpdateLink(workspace.id);
  const deleteLink = useDeleteLink(workspace.id);
  // Said here, not in the form: a saved link is a new form (keyed by updatedAt).
  const [saved, setSaved] = useState(false);
  // The summary first, then the analytics, the QR codes and the edit form, a commit each.
  const stage = useStaged(link ? 4 : 1);
  if (q.isLoading || (q.data && !link) || (link && !othersIn)) return <Loading what="Loading link" />;
  if (!link) return <ErrorAlert error={q.error ?? new Error('No such link')} />;
  const editable = mayChange({ role: workspace.role, userId }, link);
  const save = {
    ...update,
    mutate: (body: UpdateLinkBody, opts: Parameters<typeof update.mutate>[1]) => { setSaved(false); update.mutate({ linkId, body }, opts); },
  };
  const remove = async () => {
    if (!(await confirm({ message: `Delete ${link.slug}? Its short URL will stop working.`, action: 'Delete link' }))) return;
    deleteLink.mutate(linkId, { onSuccess: () => navigate(dashboardPath('links', { ws: workspace.slug })) });
  };
  return (
    <Page title={link.slug} actions={editable ? <button type="button" className="danger" onClick={() => void remove()}>Delete link</button> : null}>
      <ErrorAlert error={deleteLink.error} />
      <dl className="facts">
        <dt>Short URL</dt><dd><a href={link.shortUrl}>{link.shortUrl}</a> <CopyButton value={link.shortUrl} label="Copy short URL" /></dd>
        <dt>Destination</dt><dd>{link.url}</dd>
        <dt>Status</dt><dd>{link.status.replace('_', ' ')}{link.passwordProtected ? ', password protected' : ''}</dd>
        <dt>Total</dt><dd><span data-testid="link-clicks">{link.clicks}</span> clicks</dd>
        <Health workspace={workspace} link={link} />
      </dl>
      {stage >= 2 ? <LinkAnalytics workspace={workspace} link={link} /> : <div className="pending-block" />}
      {stage >= 3 ? <LinkQrCodes workspace={workspace} link={link} /> : null}
      {stage >= 4 ? <section aria-labelledby="edit-heading">
        <h2 id="edit-heading">Edit</h2>
        {saved ? <p role="status" className="status-ok">Saved.</p> : null}
        {editable ? (
          <Suspense fallback={<Loading what="Loading the form" />}>
            <LinkForm key={link.updatedAt} workspace={workspace} link={link} submitLabel="Save changes" mutation={save} onSaved={() => setSaved(true)} />
          </Suspense>
        )
          : <p className="hint">Your role cannot change this link.</p>}
      </section> : null}
    </Page>
  );
}

export default function LinkDetailPage() {
  const userId = useSession().session?.user.id;
  return <WithWorkspace>{(ws) => <LinkDetail workspace={ws} userId={userId} />}</WithWorkspace>;
}

import { useState } from 'react';
import { Link } from 'react-router';
import type { Workspace } from '@hop/shared';
import { useWorkspaceAnalytics } from '../queries/analytics.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Loading } from '../components/states.js';
import { DataTable } from '../components/data-table.js';
import { AnalyticsView, RangePicker, type Range } from '../components/analytics-view.js';
import { dashboardPath } from '@hop/shared/dashboard-paths';

function WorkspaceAnalytics({ workspace }: { workspace: Workspace }) {
  const [range, setRange] = useState<Range>({ days: 30 });
  const q = useWorkspaceAnalytics(workspace.id, range);
  return (
    <>
      <RangePicker range={range} onChange={setRange} />
      <ErrorAlert error={q.error} />
      {q.isLoading ? <Loading what="Loading analytics" /> : null}
      {q.data ? (
        <>
          <AnalyticsView data={q.data} />
          <section className="card" aria-labelledby="top-h">
            <h2 id="top-h">Top links</h2>
            {!q.data.topLinks?.length ? <p className="hint">No clicks in this range.</p> : (
              <DataTable label="Top links" rows={q.data.topLinks} rowKey={(l) => l.linkId} columns={[
                { key: 'link', header: 'Link', phone: 'title', cell: (l) => <><Link to={dashboardPath('link', { ws: workspace.slug, linkId: l.linkId })}>{l.slug}</Link> <span className="hint">{l.domain}</span></> },
                { key: 'clicks', header: 'Clicks', numeric: true, cell: (l) => l.clicks },
                { key: 'unique', header: 'Unique', numeric: true, cell: (l) => l.uniqueClicks },
              ]} />
            )}
          </section>
        </>
      ) : null}
    </>
  );
}

export default function AnalyticsPage() {
  return <WithWorkspace>{(ws) => <Page title="Analytics"><WorkspaceAnalytics workspace={ws} /></Page>}</WithWorkspace>;
}

import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { CreateLinkBody } from '@hop/shared';
import { useApi } from '../api.js';
import { roleMayCall } from '@hop/shared';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { LinkForm } from '../components/link-form.js';
import { dashboardPath } from '@hop/shared';

export default function LinkNewPage() {
  const api = useApi();
  const navigate = useNavigate();
  const queries = useQueryClient();
  return (
    <WithWorkspace>
      {(ws) => (
        <Page title="Create link">
          {roleMayCall(ws.role, 'createLink') ? null : <div role="alert" className="alert">Viewers cannot create links.</div>}
          <LinkForm workspace={ws} submitLabel="Create link" disabled={!roleMayCall(ws.role, 'createLink')} onSubmit={async (body) => {
            const { data } = await api.call('createLink', { params: { workspaceId: ws.id }, body: body as CreateLinkBody });
            await queries.invalidateQueries({ queryKey: ['links', ws.id] });
            await queries.invalidateQueries({ queryKey: ['tags', ws.id] });
            navigate(dashboardPath('link', { ws: ws.slug, linkId: data.id }));
          }} />
        </Page>
      )}
    </WithWorkspace>
  );
}

import { useNavigate } from 'react-router';
import type { Workspace } from '@hop/shared';
import { useCreateLink } from '../queries/links.js';
import { roleMayCall } from '@hop/shared/access';
import { dashboardPath } from '@hop/shared/dashboard-paths';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { LinkForm } from '../link-form/link-form.js';

function NewLink({ workspace: ws }: { workspace: Workspace }) {
  const navigate = useNavigate();
  const create = useCreateLink(ws.id);
  return (
    <Page title="Create link">
      {roleMayCall(ws.role, 'createLink') ? null : <div role="alert" className="alert">Viewers cannot create links.</div>}
      <LinkForm workspace={ws} submitLabel="Create link" disabled={!roleMayCall(ws.role, 'createLink')} mutation={create}
        onSaved={(link) => navigate(dashboardPath('link', { ws: ws.slug, linkId: link.id }))} />
    </Page>
  );
}

export default function LinkNewPage() {
  return <WithWorkspace>{(ws) => <NewLink workspace={ws} />}</WithWorkspace>;
}

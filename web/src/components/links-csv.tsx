import { lazy, Suspense, useState } from 'react';
import type { Workspace } from '@hop/shared';
import { Loading } from './states.js';

// The panel checks each row with the link schema: its chunk (with zod and every link schema, built
// when the module loads) is loaded when the panel is first opened, not with the links page.
const LinksCsvPanel = lazy(() => import('./links-csv-panel.js'));

/** CSV import and export of the workspace's links, folded until opened. */
export function LinksCsv({ workspace }: { workspace: Workspace }) {
  const [opened, setOpened] = useState(false);
  return (
    <details className="csv" onToggle={(e) => { if (e.currentTarget.open) setOpened(true); }}>
      <summary>CSV import and export</summary>
      {opened ? <Suspense fallback={<Loading what="Loading CSV import and export" />}><LinksCsvPanel workspace={workspace} /></Suspense> : null}
    </details>
  );
}

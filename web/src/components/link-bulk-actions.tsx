import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { TagSchema } from '@hop/shared/links';
import type { Link, Workspace } from '@hop/shared';
import { HopApiError } from '../api.js';
import { check } from '../form-errors.js';
import { linkKeys, useDeleteLink, useUpdateLink } from '../queries/links.js';
import { useConfirm } from './confirm.js';

/**
 * Delete or tag the selected links. The API has no bulk delete or bulk update, so each link is
 * its own request; a refusal (a member changing another's link) is reported per link.
 */
export default function BulkActions({ workspace, ids, onDone }: { workspace: Workspace; ids: string[]; onDone: () => void }) {
  const confirm = useConfirm();
  const queries = useQueryClient();
  const deleteLink = useDeleteLink(workspace.id);
  const updateLink = useUpdateLink(workspace.id);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  const run = async (what: string, one: (id: string) => Promise<unknown>) => {
    setBusy(true);
    const results = await Promise.allSettled(ids.map(one));
    const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    setMessage(failed.length ? `${what} ${ids.length - failed.length} of ${ids.length}; ${failed.length} refused: ${(failed[0].reason as HopApiError).message}` : `${what} ${ids.length} link${ids.length === 1 ? '' : 's'}.`);
    setBusy(false);
    if (!failed.length) onDone();
  };

  const remove = async () => {
    if (!(await confirm({ message: `Delete ${ids.length} link${ids.length === 1 ? '' : 's'}? Their short URLs will stop working.`, action: 'Delete' }))) return;
    void run('Deleted', (linkId) => deleteLink.mutateAsync(linkId));
  };

  const tag = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const parsed = check(TagSchema, new FormData(e.currentTarget).get('tag'));
    if (!parsed.data) return setMessage(`Tag ${parsed.errors?.form}`);
    const links = queries.getQueriesData<{ data: Link[] }>({ queryKey: linkKeys.lists(workspace.id) })
      .flatMap(([, d]) => d?.data ?? []);
    const tagsOf = (id: string) => links.find((l) => l.id === id)?.tags ?? [];
    await run('Tagged', (linkId) => updateLink.mutateAsync({ linkId, body: { tags: [...new Set([...tagsOf(linkId), parsed.data])] } }));
  };

  return (
    <div className="bulk" aria-label="Selected links">
      <span>{ids.length} selected</span>
      <form onSubmit={tag} className="inline">
        <label htmlFor="bulk-tag">Tag to add</label>
        <input id="bulk-tag" name="tag" required />
        <button type="submit" className="secondary" disabled={busy}>Add tag</button>
      </form>
      <button type="button" className="danger" onClick={() => void remove()} disabled={busy}>Delete selected</button>
      {message ? <p role="status">{message}</p> : null}
    </div>
  );
}

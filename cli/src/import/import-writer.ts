// Carries out an import plan: creations through the bulk endpoint (100 per call, each call with its
// own Idempotency-Key), overwrites one PATCH each. Skips, conflicts and invalid links send nothing.
import type { HopClient } from '@hop/shared/client';
import type { ImportItem } from '@hop/shared/import';
import type { UpdateLinkBody } from '@hop/shared';
import { createInBulk, describeFailure } from '../link-batch.js';

export interface ImportResult {
  item: ImportItem;
  success: boolean;
  id?: string;
  shortUrl?: string;
  error?: { code: string; message: string };
}

export async function writeImport(api: HopClient, workspaceId: string, items: ImportItem[], onResult: (r: ImportResult) => void): Promise<ImportResult[]> {
  const out: ImportResult[] = [];
  const report = (r: ImportResult) => {
    out.push(r);
    onResult(r);
  };
  const creates = items.filter((i) => i.action === 'create');
  await createInBulk(api, workspaceId, creates.map((i) => i.body!), (r) => {
    report({ item: creates[r.index], success: r.success, id: r.link?.id, shortUrl: r.link?.shortUrl, error: r.error });
  });
  for (const item of items.filter((i) => i.action === 'overwrite')) {
    try {
      const { data } = await api.call('updateLink', { params: { workspaceId, linkId: item.linkId! }, body: item.body as UpdateLinkBody });
      report({ item, success: true, id: data.id, shortUrl: data.shortUrl });
    } catch (err) {
      report({ item, success: false, id: item.linkId, error: describeFailure(err) });
    }
  }
  return out;
}

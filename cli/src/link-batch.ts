import type { CreateLinkBody, Link } from '@hop/shared';
import type { HopClient } from '@hop/shared/client';
import { HopApiError } from '@hop/shared/client';

/** The bulk endpoint takes at most this many links per call (docs/api.md, Links). */
export const BULK_MAX = 100;

export interface ItemResult {
  index: number;
  success: boolean;
  link?: Link;
  error?: { code: string; message: string };
}

const failure = (err: unknown) =>
  err instanceof HopApiError ? { code: err.code, message: err.message } : { code: 'ERROR', message: String((err as Error)?.message ?? err) };

/**
 * Creates links through POST .../links/bulk, 100 at a time; each call carries its own
 * Idempotency-Key (api-retry.ts), so a retried batch is not created twice. A batch the server
 * refused as a whole reports each of its links as failed, and the next batch still goes.
 */
export async function createInBulk(api: HopClient, workspaceId: string, bodies: CreateLinkBody[], onResult: (r: ItemResult) => void): Promise<ItemResult[]> {
  const all: ItemResult[] = [];
  for (let start = 0; start < bodies.length; start += BULK_MAX) {
    const chunk = bodies.slice(start, start + BULK_MAX);
    let results: ItemResult[];
    try {
      const { data } = await api.call('bulkCreateLinks', { params: { workspaceId }, body: chunk });
      results = data.map((r) => (r.success
        ? { index: start + r.index, success: true, link: r.data as Link }
        : { index: start + r.index, success: false, error: { code: r.error.code, message: r.error.message } }));
    } catch (err) {
      results = chunk.map((_, i) => ({ index: start + i, success: false, error: failure(err) }));
    }
    for (const r of results) onResult(r);
    all.push(...results);
  }
  return all;
}

/** Every link of the workspace, following cursors 100 at a time. */
export async function fetchAllLinks(api: HopClient, workspaceId: string): Promise<Link[]> {
  return (await api.paginate('listLinks', { params: { workspaceId }, query: { limit: 100 } })).data;
}

/** Names of the workspace's custom domains (with `verifiedOnly`, those links can be made on); none when the credential may not read them. */
export async function customDomainNames(api: HopClient, workspaceId: string, opts: { verifiedOnly?: boolean } = {}): Promise<Set<string>> {
  try {
    const { data } = await api.paginate('listDomains', { params: { workspaceId }, query: { limit: 100 } });
    return new Set(data.filter((d) => !opts.verifiedOnly || d.verified).map((d) => d.name));
  } catch (err) {
    if (err instanceof HopApiError && (err.code === 'INSUFFICIENT_SCOPE' || err.code === 'FORBIDDEN')) return new Set();
    throw err;
  }
}

export { failure as describeFailure };

/** A one-line progress bar on stderr, only on a terminal; silent otherwise. */
export function progressBar(total: number, enabled: boolean) {
  let done = 0;
  const draw = () => {
    if (!enabled || !total) return;
    const width = Math.max(10, Math.min(40, (process.stderr.columns || 80) - 30));
    const filled = Math.round((done / total) * width);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
  };
  draw();
  return {
    tick(n = 1) {
      done += n;
      draw();
    },
    end() {
      if (enabled && total) process.stderr.write('\n');
    },
  };
}

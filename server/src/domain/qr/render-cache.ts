import { LRUCache } from 'lru-cache';

/** A rendered code as downloads serve it. */
export interface CachedRender {
  linkId: string;
  bytes: Buffer;
  contentType: string;
  filename: string;
}

const MAX_BYTES = 64 * 1024 * 1024;

/**
 * Renders are made once, at creation, and stored with the record (a download is never a
 * generation); this per-process LRU, bounded by bytes, keeps hot downloads off the database.
 * Entries go when their link changes (the file name carries its slug) or their code is deleted.
 */
export function createRenderCache(maxBytes = MAX_BYTES) {
  const entries = new LRUCache<string, CachedRender>({
    maxSize: maxBytes,
    sizeCalculation: (e) => Math.max(1, e.bytes.length),
    // One render may not push out a quarter of the others.
    maxEntrySize: maxBytes / 4,
  });
  return {
    get: (qrId: string) => entries.get(qrId),
    set(qrId: string, e: CachedRender) {
      entries.set(qrId, e);
    },
    invalidateLink(linkId: string) {
      const stale = [...entries.entries()].filter(([, e]) => e.linkId === linkId).map(([id]) => id);
      for (const id of stale) entries.delete(id);
    },
  };
}

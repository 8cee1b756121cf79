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
  const entries = new Map<string, CachedRender>();
  let bytes = 0;

  function drop(qrId: string) {
    const e = entries.get(qrId);
    if (!e) return;
    entries.delete(qrId);
    bytes -= e.bytes.length;
  }

  return {
    get(qrId: string): CachedRender | undefined {
      const e = entries.get(qrId);
      if (e) {
        entries.delete(qrId);
        entries.set(qrId, e);
      }
      return e;
    },
    set(qrId: string, e: CachedRender) {
      if (e.bytes.length > maxBytes / 4) return;
      drop(qrId);
      entries.set(qrId, e);
      bytes += e.bytes.length;
      while (bytes > maxBytes) drop(entries.keys().next().value!);
    },
    invalidateLink(linkId: string) {
      for (const [id, e] of entries) if (e.linkId === linkId) drop(id);
    },
  };
}

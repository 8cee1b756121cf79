import type { QrTarget } from '../domain/qr/qr-service.js';

const MAX_ENTRIES = 20_000;
// A safety net should a notification ever be missed; changes normally drop entries at once.
const TTL_MS = 5 * 60_000;
const CODE_SHAPE = /^[A-Za-z0-9]{4,32}$/;

/**
 * `/q/{code}` → the link's current domain and slug, cached per process like links are. An entry
 * goes when its link changes (slug, domain, deletion) or its code is deleted: the link channel's
 * NOTIFY, or at once in the process that made the change.
 */
export function createQrTargets(deps: { find: (code: string) => Promise<QrTarget | null>; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const byCode = new Map<string, { target: QrTarget; at: number }>();
  let generation = 0;

  return {
    async resolve(code: string): Promise<QrTarget | null> {
      if (!CODE_SHAPE.test(code)) return null;
      const hit = byCode.get(code);
      if (hit && now() - hit.at < TTL_MS) return hit.target;
      const started = generation;
      const target = await deps.find(code);
      if (target && generation === started) {
        byCode.set(code, { target, at: now() });
        if (byCode.size > MAX_ENTRIES) byCode.delete(byCode.keys().next().value!);
      }
      return target;
    },
    invalidateLink(linkId: string) {
      generation++;
      for (const [code, e] of byCode) if (e.target.linkId === linkId) byCode.delete(code);
    },
    clear() {
      generation++;
      byCode.clear();
    },
  };
}

export type QrTargets = ReturnType<typeof createQrTargets>;

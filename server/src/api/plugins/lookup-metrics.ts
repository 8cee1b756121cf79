import { Counter, Gauge, type Registry } from 'prom-client';
import type { LinkLookups } from '../../domain/links/link-lookups.js';

/** A counter that reads a running total when scraped (the lookups count plain numbers). */
function totalOf(registry: Registry, name: string, help: string, read: () => number) {
  let counted = 0;
  new Counter({
    name, help, registers: [registry],
    collect() {
      const now = read();
      if (now > counted) this.inc(now - counted);
      counted = now;
    },
  });
}

/**
 * The redirector's lookups of links it has not cached: how long the oldest has waited (a stalled
 * database or worker shows here first), how many wait, and how many statements they took.
 */
export function registerLookupMetrics(registry: Registry, lookups: LinkLookups) {
  new Gauge({
    name: 'hop_link_lookup_oldest_seconds',
    help: 'Age of the oldest link lookup (a redirect cache miss) still waiting for the database; 0 when none waits',
    registers: [registry],
    collect() { this.set(lookups.oldestPendingSeconds()); },
  });
  new Gauge({
    name: 'hop_link_lookup_pending', help: 'Link lookups waiting for the database', registers: [registry],
    collect() { this.set(lookups.stats().pending); },
  });
  totalOf(registry, 'hop_link_lookups_total', 'Links looked up in the database (concurrent misses of one link count once)', () => lookups.stats().asked);
  totalOf(registry, 'hop_link_lookups_coalesced_total', 'Cache misses that joined a lookup of the same link already waiting', () => lookups.stats().coalesced);
  totalOf(registry, 'hop_link_lookup_queries_total', 'Statements the link lookups took (many links each when misses come together)', () => lookups.stats().queries);
  totalOf(registry, 'hop_link_lookup_timeouts_total', 'Waits for a link lookup given up after HOP_LINK_LOOKUP_TIMEOUT_MS (a visit then answers 503)', () => lookups.stats().timeouts);
}

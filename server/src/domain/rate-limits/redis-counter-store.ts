import { Redis } from 'ioredis';
import type { CounterRef, CounterStore } from './counter-store.js';

const PREFIX = 'hop:rl:';
const redisKey = (e: CounterRef) => `${PREFIX}${e.key}:${e.windowStart}`;

/** Counters in Redis (REDIS_URL): INCRBY and PEXPIRE per counter, the batch in one pipeline. */
export function createRedisCounterStore(url: string): CounterStore {
  // Fail fast rather than queueing requests behind a Redis that is down: the limiter then lets
  // requests through (see rate-limiter.ts) instead of holding every API call.
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableAutoPipelining: true, lazyConnect: false });
  redis.on('error', () => {}); // reported by the failing commands; reconnects on its own
  return {
    async add(entries) {
      if (!entries.length) return [];
      const pipe = redis.multi();
      for (const e of entries) {
        pipe.incrby(redisKey(e), e.n);
        // The counter outlives its window a little, for clock skew between processes.
        pipe.pexpire(redisKey(e), e.windowMs + 60_000);
      }
      const results = (await pipe.exec()) ?? [];
      return entries.map((_, i) => {
        const [err, value] = results[i * 2] ?? [new Error('no reply'), 0];
        if (err) throw err;
        return Number(value);
      });
    },
    async get(entries) {
      if (!entries.length) return [];
      const values = await redis.mget(entries.map(redisKey));
      return values.map((v) => Number(v ?? 0));
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/**
 * What one delivery attempt came to, in the words the dispatcher records it by and the metrics
 * label it with: `succeeded` (the endpoint took it; the delivery ends), `failed` (its last attempt
 * failed, or it could not be sent at all; the delivery ends) and `retry` (another attempt is
 * scheduled).
 */
export const DELIVERY_OUTCOMES = ['succeeded', 'failed', 'retry'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];
export type OutcomeCounts = Record<DeliveryOutcome, number>;

const none = (): OutcomeCounts => ({ succeeded: 0, failed: 0, retry: 0 });

/**
 * Attempts recorded, by outcome, since the tally began: plain numbers, as cheap at thousands of
 * deliveries a second as at one. `since()` hands over what was added after the previous call, so a
 * dispatcher's thread can report in batches.
 */
export function createOutcomeTally() {
  const counts = none();
  let reported = none();
  return {
    counts: counts as Readonly<OutcomeCounts>,
    add(outcome: DeliveryOutcome, n = 1) {
      counts[outcome] += n;
    },
    addAll(more: Readonly<OutcomeCounts>) {
      for (const o of DELIVERY_OUTCOMES) counts[o] += more[o];
    },
    /** What was added since the last call, or undefined when nothing was. */
    since(): OutcomeCounts | undefined {
      const delta = none();
      for (const o of DELIVERY_OUTCOMES) delta[o] = counts[o] - reported[o];
      if (DELIVERY_OUTCOMES.every((o) => delta[o] === 0)) return undefined;
      reported = { ...counts };
      return delta;
    },
  };
}

export type OutcomeTally = ReturnType<typeof createOutcomeTally>;

/**
 * A latency histogram by route, in prom-client's metric interface (`registry.registerMetric`).
 * prom-client's own histogram validates, hashes and looks up its labels on every observation: on
 * the redirect fast path that would cost as much as the rest of the visit's recording. Here a route's series is found once and an observation is a
 * walk over ten bounds and two additions.
 */
export interface RouteSeries {
  observe(seconds: number): void;
}

export function createRouteHistogram(opts: { name: string; help: string; buckets: readonly number[] }) {
  const { name, help, buckets } = opts;
  const series = new Map<string, { counts: Float64Array; sum: number; count: number }>();

  function seriesOf(route: string) {
    let s = series.get(route);
    if (!s) {
      // One count per bound and one past the last (+Inf), each for its own bucket (not cumulative).
      s = { counts: new Float64Array(buckets.length + 1), sum: 0, count: 0 };
      series.set(route, s);
    }
    return s;
  }

  function add(s: { counts: Float64Array; sum: number; count: number }, seconds: number) {
    let i = 0;
    while (i < buckets.length && seconds > buckets[i]!) i++;
    s.counts[i]!++;
    s.sum += seconds;
    s.count++;
  }

  return {
    name,
    help,
    type: 'histogram' as const,
    aggregator: 'sum' as const,
    /** The route's series, to keep and observe on a hot path. */
    series(route: string): RouteSeries {
      const s = seriesOf(route);
      return { observe: (seconds: number) => add(s, seconds) };
    },
    observe(route: string, seconds: number) {
      add(seriesOf(route), seconds);
    },
    /** What prom-client's registry formats: cumulative buckets, +Inf, sum and count per route. */
    async get() {
      const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
      for (const [route, s] of series) {
        let cumulative = 0;
        buckets.forEach((le, i) => {
          cumulative += s.counts[i]!;
          values.push({ labels: { le, route }, value: cumulative, metricName: `${name}_bucket` });
        });
        values.push({ labels: { le: '+Inf', route }, value: s.count, metricName: `${name}_bucket` });
        values.push({ labels: { route }, value: s.sum, metricName: `${name}_sum` });
        values.push({ labels: { route }, value: s.count, metricName: `${name}_count` });
      }
      return { name, help, type: 'histogram' as const, aggregator: 'sum' as const, values };
    },
  };
}

import { useEffect, useRef } from 'react';

export interface SeriesPoint { date: string; clicks: number; uniqueClicks: number }

/** Runs `fn` once the browser is idle after the next paint. Returns what cancels it. */
function afterPaint(fn: () => void): () => void {
  let idle = 0;
  const frame = requestAnimationFrame(() => {
    idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(fn, { timeout: 500 }) : window.setTimeout(fn, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (typeof cancelIdleCallback === 'function') cancelIdleCallback(idle); else clearTimeout(idle);
  };
}

/**
 * Clicks and unique clicks per day. The box renders with the page, at its final height (see
 * .chart), so nothing shifts when the plot arrives. The chart library then loads, and the plot is
 * drawn, each in an idle moment after a paint: loading uPlot and drawing each take about as long as
 * rendering the rest of the page, and done in the commit that shows the box they would make one
 * long task of all three.
 */
export function TimeseriesChart({ points, label }: { points: SeriesPoint[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let cancel = () => {};
    let remove = () => {};
    let live = true;
    cancel = afterPaint(() => {
      void import('./draw-timeseries.js').then(({ drawTimeseries }) => {
        if (live) cancel = afterPaint(() => { remove = drawTimeseries(el, points); });
      });
    });
    return () => { live = false; cancel(); remove(); };
  }, [points]);
  return <div ref={box} className="chart" role="img" aria-label={label} />;
}

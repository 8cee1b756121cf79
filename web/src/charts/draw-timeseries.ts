import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { SeriesPoint } from './timeseries-chart.js';

/**
 * Draws clicks and unique clicks per day into `el` with uPlot (a ~50 KB canvas chart library), in
 * a chunk of its own that loads only where a chart is shown. The plot follows the box's width,
 * down to 280 px. Returns what removes it.
 */
export function drawTimeseries(el: HTMLElement, points: SeriesPoint[]): () => void {
  const xs = points.map((p) => Date.parse(`${p.date}T00:00:00Z`) / 1000);
  const opts: uPlot.Options = {
    width: Math.max(280, el.clientWidth),
    height: 240,
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    series: [
      {},
      { label: 'Clicks', stroke: '#3b3bd6', width: 2, fill: 'rgba(59,59,214,0.08)' },
      { label: 'Unique', stroke: '#1e6b35', width: 2 },
    ],
    axes: [{}, { size: 50 }],
  };
  const plot = new uPlot(opts, [xs, points.map((p) => p.clicks), points.map((p) => p.uniqueClicks)], el);
  plot.root.querySelector('canvas')?.setAttribute('aria-hidden', 'true');
  const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, el.clientWidth), height: 240 }));
  resize.observe(el);
  return () => { resize.disconnect(); plot.destroy(); };
}

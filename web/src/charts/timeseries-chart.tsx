import { useMemo, useState, type PointerEvent } from 'react';

export interface SeriesPoint { date: string; clicks: number; uniqueClicks: number }

/** Grid lines at most this many steps apart from 0 to the top, on a 1, 2 or 5 times a power of ten step. */
const MAX_STEPS = 4;
/** Dates under the x axis: at most this many, evenly spaced, so that they fit a phone's width. */
const MAX_DATES = 5;

/** The step of the y axis's grid, and its top (a multiple of the step at or above `max`). */
export function yScale(max: number): { step: number; top: number } {
  const m = Math.max(1, max);
  const magnitude = 10 ** Math.floor(Math.log10(m / MAX_STEPS));
  const step = [1, 2, 5, 10].map((k) => k * magnitude).find((s) => s >= 1 && Math.ceil(m / s) <= MAX_STEPS) ?? 10 * magnitude;
  return { step, top: Math.ceil(m / step) * step };
}

/** The indices of the dates named under the axis: the first, the last and evenly between. */
export function dateTicks(n: number): number[] {
  if (n <= 1) return n ? [0] : [];
  const k = Math.min(n, MAX_DATES);
  return [...new Set(Array.from({ length: k }, (_, i) => Math.round((i * (n - 1)) / (k - 1))))];
}

let dayFormat: Intl.DateTimeFormat | undefined;
/** "Nov 29" for a UTC day, in the reader's language. */
function day(date: string): string {
  dayFormat ??= new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return dayFormat.format(new Date(`${date}T00:00:00Z`));
}

/**
 * Clicks and unique clicks per day: an SVG drawn by React with the page, in the same transition
 * and its short tasks (ADR 0167). The lines are in a viewBox of one unit a day by 100 units tall,
 * stretched to the box's width and 240 px; labels are HTML beside it, so their text keeps its size
 * at any width. The box has its final height from the first render, so nothing shifts. Pointing
 * at a day names its figures in the legend; the label says the total, and the breakdowns beside
 * the chart are tables.
 */
export function TimeseriesChart({ points, label }: { points: SeriesPoint[]; label: string }) {
  const [hover, setHover] = useState<number | null>(null);
  const n = points.length;
  const width = Math.max(1, n - 1);
  const plot = useMemo(() => {
    const { step, top } = yScale(Math.max(0, ...points.map((p) => p.clicks)));
    const x = (i: number) => (n === 1 ? width / 2 : i);
    const y = (v: number) => 100 - (v / top) * 100;
    const line = (f: (p: SeriesPoint) => number) => points.map((p, i) => `${i ? 'L' : 'M'}${x(i)} ${y(f(p)).toFixed(2)}`).join('') + (n === 1 ? 'h0' : '');
    const clicks = line((p) => p.clicks);
    const grid = Array.from({ length: top / step + 1 }, (_, i) => i * step);
    return {
      clicks, unique: line((p) => p.uniqueClicks), grid, top,
      area: n > 1 ? `${clicks}L${x(n - 1)} 100L0 100Z` : '',
      gridPath: grid.map((v) => `M0 ${y(v)}H${width}`).join(''),
    };
  }, [points, n, width]);
  const pointAt = (e: PointerEvent<HTMLDivElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    if (!n || !r.width) return;
    setHover(Math.min(n - 1, Math.max(0, Math.round(((e.clientX - r.left) / r.width) * (n - 1)))));
  };
  const shown = hover !== null && hover < n ? points[hover] : undefined;
  return (
    <div className="chart" role="img" aria-label={label}>
      <div className="chart-y" aria-hidden="true">
        {plot.grid.map((v) => <span key={v} style={{ bottom: `${(v / plot.top) * 100}%` }}>{v}</span>)}
      </div>
      <div className="chart-plot" onPointerMove={pointAt} onPointerLeave={() => setHover(null)}>
        <svg viewBox={`0 0 ${width} 100`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
          <path className="chart-grid" d={plot.gridPath} />
          {plot.area ? <path className="chart-area" d={plot.area} /> : null}
          <path className="chart-clicks" d={plot.clicks} />
          <path className="chart-unique" d={plot.unique} />
          {shown ? <path className="chart-grid" d={`M${n === 1 ? width / 2 : hover} 0V100`} /> : null}
        </svg>
      </div>
      <div className="chart-x" aria-hidden="true">
        {dateTicks(n).map((i) => <span key={i} style={{ left: `${n === 1 ? 50 : (i / (n - 1)) * 100}%` }}>{day(points[i].date)}</span>)}
      </div>
      <p className="chart-legend" aria-hidden="true">
        {shown ? <span>{day(shown.date)}</span> : null}
        <span><i className="key-clicks" /> Clicks{shown ? ` ${shown.clicks}` : ''}</span>
        <span><i className="key-unique" /> Unique{shown ? ` ${shown.uniqueClicks}` : ''}</span>
      </p>
    </div>
  );
}

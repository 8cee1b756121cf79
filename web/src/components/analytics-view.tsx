import { useState } from 'react';
import type { Analytics, BreakdownEntry } from '@hop/shared';
import { SelectField, Field } from './field.js';
import { TimeseriesChart } from '../charts/timeseries-chart.js';
import { useStaged } from './staged.js';

export interface Range { days?: number; start?: string; end?: string }

const RANGES = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: '365', label: 'Last 12 months' },
  { value: 'custom', label: 'Custom range' },
];

/** The range picker: a preset number of days, or start and end days (UTC). */
export function RangePicker({ range, onChange }: { range: Range; onChange: (r: Range) => void }) {
  const [custom, setCustom] = useState(Boolean(range.start));
  return (
    <div className="filters">
      <SelectField label="Range" value={custom ? 'custom' : String(range.days ?? 30)}
        onChange={(e) => { if (e.target.value === 'custom') setCustom(true); else { setCustom(false); onChange({ days: Number(e.target.value) }); } }} options={RANGES} />
      {custom ? (
        <form className="inline" onSubmit={(e) => { e.preventDefault(); const f = new FormData(e.currentTarget); onChange({ start: String(f.get('start')), end: String(f.get('end')) }); }}>
          <Field label="From" name="start" type="date" required defaultValue={range.start} />
          <Field label="To" name="end" type="date" required defaultValue={range.end} />
          <button type="submit" className="secondary">Apply range</button>
        </form>
      ) : null}
    </div>
  );
}

function Breakdown({ title, rows, label = (k) => k }: { title: string; rows: BreakdownEntry[] | undefined; label?: (key: string) => string }) {
  return (
    <section className="card breakdown" aria-labelledby={`bd-${title}`}>
      <h3 id={`bd-${title}`}>{title}</h3>
      {!rows?.length ? <p className="hint">No clicks in this range.</p> : (
        <table>
          <thead><tr><th scope="col">{title}</th><th scope="col" className="num">Clicks</th><th scope="col" className="num">Unique</th></tr></thead>
          <tbody>{rows.slice(0, 10).map((r) => <tr key={r.key ?? '(unknown)'}><td>{r.key === null ? 'Unknown' : label(r.key)}</td><td className="num">{r.clicks}</td><td className="num">{r.uniqueClicks}</td></tr>)}</tbody>
        </table>
      )}
    </section>
  );
}

/**
 * Totals, the daily chart and the breakdowns of one analytics answer. `targetLabel` names the
 * destinations of a smart link (`rule:0` as its first rule); targets show where a link has any
 * other than its destination URL.
 */
export function AnalyticsView({ data, targetLabel }: { data: Analytics; targetLabel?: (key: string) => string }) {
  const smart = data.targets?.some((t) => t.key !== 'default');
  // The totals and the chart first, the breakdowns (six tables) in a commit of their own.
  const stage = useStaged(2);
  return (
    <>
      <div className="stats">
        <div className="stat"><strong data-testid="total-clicks">{data.totalClicks}</strong> clicks</div>
        <div className="stat"><strong>{data.uniqueClicks}</strong> unique clicks</div>
        {data.importedClicks ? <div className="stat" title="Lifetime clicks at the service the links were imported from: part of the clicks, in no day"><strong data-testid="imported-clicks">{data.importedClicks}</strong> imported clicks</div> : null}
        {data.failedPasswordAttempts ? <div className="stat"><strong>{data.failedPasswordAttempts}</strong> failed password attempts</div> : null}
      </div>
      <p className="hint">{data.start} to {data.end} (UTC days)</p>
      <TimeseriesChart points={data.timeseries ?? []} label={`Clicks per day from ${data.start} to ${data.end}: ${data.totalClicks} in all`} />
      {stage >= 2 ? <div className="breakdowns">
        <Breakdown title="Countries" rows={data.countries} />
        <Breakdown title="Devices" rows={data.devices} />
        <Breakdown title="Browsers" rows={data.browsers} />
        <Breakdown title="Operating systems" rows={data.os} />
        <Breakdown title="Referrers" rows={data.referrers} />
        {smart || targetLabel ? <Breakdown title="Targets" rows={data.targets} label={targetLabel} /> : null}
      </div> : null}
    </>
  );
}

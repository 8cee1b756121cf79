/**
 * Which columns of a table a terminal shows and how wide, as gh's tables do: the columns that
 * may be cut give up room first (down to their floor), then whole columns are dropped, the most
 * droppable first; only when nothing else is left is any remaining column cut.
 */
export interface FitColumn {
  /** The width of the header and the widest value. */
  natural: number;
  /** May be cut with … down to this width before any column is dropped. */
  cutTo?: number;
  /** When the table still does not fit, columns are dropped highest first; never when absent. */
  drop?: number;
}

export const PADDING = 2;
const LAST_RESORT_WIDTH = 4;

export interface Fitted {
  /** Indexes of the columns shown, in order. */
  shown: number[];
  /** The width of each column shown, by index. */
  widths: number[];
}

export function fitColumns(columns: readonly FitColumn[], width: number): Fitted {
  let shown = columns.map((_, i) => i);
  for (;;) {
    const widths = columns.map((c) => c.natural);
    const total = () => shown.reduce((sum, i) => sum + widths[i] + PADDING, 0) - PADDING;
    const shrink = (floor: (i: number) => number | undefined) => {
      while (total() > width) {
        const candidates = shown.filter((i) => floor(i) !== undefined && widths[i] > floor(i)!);
        if (!candidates.length) return;
        const widest = candidates.reduce((a, b) => (widths[b] > widths[a] ? b : a));
        widths[widest] = Math.max(floor(widest)!, widths[widest] - (total() - width));
      }
    };
    shrink((i) => columns[i].cutTo);
    if (total() <= width) return { shown, widths };
    const droppable = shown.filter((i) => columns[i].drop !== undefined);
    if (droppable.length) {
      const dropped = droppable.reduce((a, b) => (columns[b].drop! > columns[a].drop! ? b : a));
      shown = shown.filter((i) => i !== dropped);
      continue;
    }
    shrink(() => LAST_RESORT_WIDTH);
    return { shown, widths };
  }
}

/** `5m ago`, `3h ago`, `in 2d`: a time as far from now as it is, in the unit a person would use. */
export function relativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '';
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return seconds >= 0 ? 'just now' : 'in <1m';
  const units: [number, string][] = [[31_536_000, 'y'], [2_592_000, 'mo'], [86_400, 'd'], [3_600, 'h'], [60, 'm']];
  const [size, unit] = units.find(([s]) => abs >= s)!;
  const amount = `${Math.floor(abs / size)}${unit}`;
  return seconds >= 0 ? `${amount} ago` : `in ${amount}`;
}

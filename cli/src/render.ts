/**
 * Human output. On a terminal: tables drawn with cli-table3 (loaded only then). Piped: one
 * tab-separated line per row with no header, so `cut`, `awk` and `while read` just work.
 * Commands do not call these under --json: oclif prints the returned data instead.
 */
import type { IO } from './io.js';
import { cleanLine } from './text-hygiene.js';
import { fitColumns, PADDING, relativeTime } from './table-fit.js';

export interface Column<T> {
  header: string;
  /** The value piped (tab-separated) and, unless `shown` is set, on a terminal. */
  value: (row: T) => unknown;
  /** What a terminal shows instead, e.g. a relative date (`--wide` shows `value`). */
  shown?: (row: T) => unknown;
  /** On a terminal only with `--wide`; piped rows always have it. */
  wide?: boolean;
  /** Only on a terminal: piped rows keep the columns scripts read by position. */
  terminalOnly?: boolean;
  /** Cut with … down to this width before any column is dropped (see table-fit.ts). */
  cutTo?: number;
  /** When a table does not fit, columns are dropped highest first; never when absent. */
  drop?: number;
}

/** A date column that a terminal shows as `5m ago` (`--wide` and pipes: the ISO time), dropped first. */
export const dateColumn = <T>(header: string, value: (row: T) => string | null | undefined, drop = 9): Column<T> => ({
  header, value, shown: (row) => relativeTime(value(row)), drop,
});

const TABLE_CHARS = [
  'top', 'top-mid', 'top-left', 'top-right', 'bottom', 'bottom-mid', 'bottom-left', 'bottom-right',
  'left', 'left-mid', 'mid', 'mid-mid', 'right', 'right-mid', 'middle',
] as const;

/** A value as one line of visible text (no control characters: see text-hygiene.ts). */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return cleanLine(value.join(','));
  return cleanLine(String(value));
}

const cut = (text: string, width: number) => ([...text].length > width ? `${[...text].slice(0, width - 1).join('')}…` : text);

/**
 * Piped: one tab-separated line per row, no header, every column but the terminal-only ones. On
 * a terminal: a borderless table (cli-table3, loaded only then) that fits the width of `io`,
 * cutting and dropping columns as each declares; with `wide`, every column in full.
 */
export async function printTable<T>(io: IO, rows: readonly T[], columns: readonly Column<T>[], opts: { wide?: boolean } = {}): Promise<void> {
  if (!io.stdoutIsTTY) {
    const piped = columns.filter((c) => !c.terminalOnly);
    for (const row of rows) io.out(`${piped.map((c) => cell(c.value(row))).join('\t')}\n`);
    return;
  }
  if (!rows.length) return;
  const visible = columns.filter((c) => opts.wide || !c.wide);
  const cells = rows.map((row) => visible.map((c) => cell((!opts.wide && c.shown ? c.shown : c.value)(row))));
  const natural = visible.map((c, i) => Math.max(c.header.length, ...cells.map((r) => [...r[i]].length)));
  const { shown, widths } = opts.wide
    ? { shown: visible.map((_, i) => i), widths: natural }
    : fitColumns(visible.map((c, i) => ({ natural: natural[i], cutTo: c.cutTo, drop: c.drop })), io.columns);
  const { default: Table } = await import('cli-table3');
  const table = new Table({
    head: shown.map((i) => cut(visible[i].header, widths[i])),
    // Borderless, like `gh`: columns aligned, nothing to strip when copying a value.
    chars: Object.fromEntries(TABLE_CHARS.map((c) => [c, ''])),
    style: { head: io.color ? ['bold'] : [], border: [], 'padding-left': 0, 'padding-right': PADDING },
  });
  table.push(...cells.map((r) => shown.map((i) => cut(r[i], widths[i]))));
  // cli-table3 pads every line to the full width, the bold header inside its escape codes:
  // trailing spaces would wrap a terminal exactly as wide as the table.
  // eslint-disable-next-line no-control-regex
  const trailing = /\s+((?:\u001b\[[0-9;]*m)*)$/;
  io.out(`${table.toString().split('\n').map((l) => l.replace(trailing, '$1')).join('\n')}\n`);
}

/** One resource: `key  value` lines on a terminal, `key<TAB>value` when piped. */
export function printRecord(io: IO, entries: Record<string, unknown>): void {
  const width = Math.max(...Object.keys(entries).map((k) => k.length));
  for (const [key, value] of Object.entries(entries)) {
    io.out(`${io.stdoutIsTTY ? key.padEnd(width + 2) : `${key}\t`}${cell(value)}\n`);
  }
}

export interface Bar {
  label: string;
  value: number;
  /** Printed after the bar, e.g. `4 (3 unique)`; the value itself when absent. */
  note?: string;
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/**
 * Horizontal bars drawn with block characters, in eighths of a cell, the longest filling what the
 * terminal leaves after the labels and notes. A non-zero value always shows at least a sliver.
 */
export function barChart(input: readonly Bar[], columns: number): string[] {
  if (!input.length) return [];
  const bars = input.map((b) => ({ ...b, label: cleanLine(b.label) }));
  const labelWidth = Math.max(...bars.map((b) => b.label.length));
  const notes = bars.map((b) => b.note ?? String(b.value));
  const noteWidth = Math.max(...notes.map((n) => n.length));
  const width = Math.max(10, Math.min(100, columns - labelWidth - noteWidth - 5));
  const max = Math.max(...bars.map((b) => b.value));
  return bars.map((b, i) => {
    let eighths = max > 0 ? Math.round((b.value / max) * width * 8) : 0;
    if (b.value > 0 && eighths === 0) eighths = 1;
    const bar = '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
    return `${b.label.padEnd(labelWidth)}  ${bar.padEnd(width)}  ${notes[i]}`.trimEnd();
  });
}

/** A titled bar chart on stdout (terminal output; piped output is rows instead). */
export function printBarChart(io: IO, title: string, bars: readonly Bar[]): void {
  const heading = io.color ? `\x1b[1m${title}\x1b[22m` : title;
  io.out(`\n${heading}\n`);
  const lines = barChart(bars, io.columns);
  io.out(lines.length ? `${lines.join('\n')}\n` : '(none)\n');
}

/** Rows as tab-separated lines with no header: what a pipe gets instead of a table or a chart. */
export function printRows(io: IO, rows: readonly (readonly unknown[])[]): void {
  for (const row of rows) io.out(`${row.map((c) => cell(c)).join('\t')}\n`);
}

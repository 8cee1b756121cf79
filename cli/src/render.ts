/**
 * Human output. On a terminal: tables drawn with cli-table3 (loaded only then). Piped: one
 * tab-separated line per row with no header, so `cut`, `awk` and `while read` just work.
 * Commands do not call these under --json: oclif prints the returned data instead.
 */
import { cleanLine } from './text-hygiene.js';

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
}

const TABLE_CHARS = [
  'top', 'top-mid', 'top-left', 'top-right', 'bottom', 'bottom-mid', 'bottom-left', 'bottom-right',
  'left', 'left-mid', 'mid', 'mid-mid', 'right', 'right-mid', 'middle',
] as const;

/** Colours only on a terminal, and never when NO_COLOR is set to anything (no-color.org). */
export const useColor = () => !process.env.NO_COLOR && Boolean(process.stdout.isTTY) && process.env.TERM !== 'dumb';

/** A value as one line of visible text (no control characters: see text-hygiene.ts). */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return cleanLine(value.join(','));
  return cleanLine(String(value));
}

const PADDING = 2;

/**
 * Column widths that fit `columns` terminal cells: the widest column gives up room first, never
 * below 8 characters (as gh does, the rest is cut with …).
 */
export function fitWidths(natural: readonly number[], columns: number): number[] {
  const widths = [...natural];
  const total = () => widths.reduce((a, w) => a + w + PADDING, 0) - PADDING;
  while (total() > columns) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest] <= 8) break;
    widths[widest] -= 1;
  }
  return widths;
}

const cut = (text: string, width: number) => ([...text].length > width ? `${[...text].slice(0, width - 1).join('')}…` : text);

export async function printTable<T>(rows: readonly T[], columns: readonly Column<T>[]): Promise<void> {
  const cells = rows.map((row) => columns.map((c) => cell(c.value(row))));
  if (!process.stdout.isTTY) {
    for (const line of cells) process.stdout.write(`${line.join('\t')}\n`);
    return;
  }
  const natural = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => [...r[i]].length)));
  const widths = fitWidths(natural, process.stdout.columns || 80);
  const { default: Table } = await import('cli-table3');
  const table = new Table({
    head: columns.map((c, i) => cut(c.header, widths[i])),
    // Borderless, like `gh`: columns aligned, nothing to strip when copying a value.
    chars: Object.fromEntries(TABLE_CHARS.map((c) => [c, ''])),
    style: { head: useColor() ? ['bold'] : [], border: [], 'padding-left': 0, 'padding-right': PADDING },
  });
  table.push(...cells.map((r) => r.map((c, i) => cut(c, widths[i]))));
  // cli-table3 pads every line to the full width: trailing spaces would wrap a narrow terminal.
  process.stdout.write(`${table.toString().split('\n').map((l) => l.trimEnd()).join('\n')}\n`);
}

/** One resource: `key  value` lines on a terminal, `key<TAB>value` when piped. */
export function printRecord(entries: Record<string, unknown>): void {
  const width = Math.max(...Object.keys(entries).map((k) => k.length));
  const sep = process.stdout.isTTY ? null : '\t';
  for (const [key, value] of Object.entries(entries)) {
    process.stdout.write(`${sep ? key + sep : key.padEnd(width + 2)}${cell(value)}\n`);
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
export function barChart(input: readonly Bar[], columns = process.stdout.columns || 80): string[] {
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
export function printBarChart(title: string, bars: readonly Bar[]): void {
  const heading = useColor() ? `\x1b[1m${title}\x1b[22m` : title;
  process.stdout.write(`\n${heading}\n`);
  const lines = barChart(bars);
  process.stdout.write(lines.length ? `${lines.join('\n')}\n` : '(none)\n');
}

/** Rows as tab-separated lines with no header: what a pipe gets instead of a table or a chart. */
export function printRows(rows: readonly (readonly unknown[])[]): void {
  for (const row of rows) process.stdout.write(`${row.map((c) => cell(c)).join('\t')}\n`);
}

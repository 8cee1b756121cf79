/**
 * Text from the server reaches the terminal and CSV files only through here: C0 and C1 control
 * characters (ESC and everything else that moves the cursor, retitles the window or rings the
 * bell) are removed and the visible rest is kept (`A<ESC>[31mRED` prints as `A[31mRED`).
 */
import { stripControl } from '@hop/shared/csv-cells';

export { csvCell } from '@hop/shared/csv-cells';

export const clean = stripControl;

/** One line: also newlines and tabs become spaces (table cells, tab-separated rows). */
export function cleanLine(text: string): string {
  return clean(text.replace(/[\t\r\n]+/g, ' '));
}

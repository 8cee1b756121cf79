/**
 * Text from the server reaches the terminal and CSV files only through here: C0 and C1 control
 * characters (ESC and everything else that moves the cursor, retitles the window or rings the
 * bell) are removed and the visible rest is kept (`A<ESC>[31mRED` prints as `A[31mRED`).
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function clean(text: string): string {
  return text.replace(CONTROL, '');
}

/** One line: also newlines and tabs become spaces (table cells, tab-separated rows). */
export function cleanLine(text: string): string {
  return clean(text.replace(/[\t\r\n]+/g, ' '));
}

/**
 * A CSV cell that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, or a leading tab or
 * carriage return) is prefixed with `'` (OWASP's advice for CSV injection).
 */
export function csvCell(text: string): string {
  const c = clean(text);
  return /^[=+\-@\t\r]/.test(c) ? `'${c}` : c;
}

// Text from the server as CSV cells, with no dependency: the CLI loads it at every start.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text without C0 and C1 control characters (ESC and the rest), the visible rest kept. */
export const stripControl = (text: string) => text.replace(CONTROL, '');

/**
 * A CSV cell that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, or a leading tab or
 * carriage return) is prefixed with `'` (OWASP's advice for CSV injection).
 */
export function csvCell(text: string): string {
  const c = stripControl(text);
  return /^[=+\-@\t\r]/.test(c) ? `'${c}` : c;
}


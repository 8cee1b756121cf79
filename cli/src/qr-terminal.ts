/**
 * A QR code drawn in a terminal with half blocks (two module rows per line of text), inside the
 * 4-module quiet zone the QR standard asks for: a scanner finds a code by its light border, and a
 * code drawn to the edge of a dark terminal has none.
 *
 * Scanners expect dark modules on a light ground. With colours, every cell sets both its colours
 * (black on white from the 256-colour cube, which themes leave alone, unlike the 16 named colours),
 * so the code looks the same on light and dark terminals. Without colours (NO_COLOR, a pipe), the
 * characters take the terminal's own foreground: on a dark terminal the light modules are drawn,
 * on a light one the dark modules. The background is read from COLORFGBG when the terminal sets
 * it, else assumed dark; `--invert` says it is the other one.
 */
import QRCode from 'qrcode';

export type QrDrawing = 'colour' | 'dark-background' | 'light-background';

const QUIET_ZONE = 4;
const BLACK_ON_WHITE = '\x1b[38;5;16;48;5;231m';
const RESET = '\x1b[0m';

/** Dark or light background, from COLORFGBG (`fg;bg` or `fg;default;bg`, ANSI colour numbers). */
export function terminalBackground(colorFgBg = process.env.COLORFGBG): 'dark' | 'light' | undefined {
  const bg = Number(colorFgBg?.split(';').pop());
  if (!colorFgBg || !Number.isInteger(bg) || bg < 0 || bg > 15) return undefined;
  // 7 (white) and 9-15 (the bright colours but dark grey 8) are light grounds.
  return bg === 7 || bg >= 9 ? 'light' : 'dark';
}

/** How to draw: colours when allowed, else for the background the terminal has (or is said to have). */
export function drawingFor(opts: { colour: boolean; invert: boolean; colorFgBg?: string }): QrDrawing {
  if (opts.colour) return 'colour';
  const dark = (terminalBackground(opts.colorFgBg) ?? 'dark') === 'dark';
  return dark !== opts.invert ? 'dark-background' : 'light-background';
}

/** The lines of text that draw `text` as a QR code. */
export function drawQr(text: string, drawing: QrDrawing, errorCorrectionLevel: 'L' | 'M' | 'Q' | 'H' = 'M'): string[] {
  const { modules } = QRCode.create(text, { errorCorrectionLevel });
  const size = modules.size + 2 * QUIET_ZONE;
  const isDark = (row: number, col: number) => {
    const r = row - QUIET_ZONE;
    const c = col - QUIET_ZONE;
    return r >= 0 && c >= 0 && r < modules.size && c < modules.size && Boolean(modules.get(r, c));
  };
  // The character fills the halves whose modules are "ink": dark ones, or light ones on a dark terminal.
  const ink = drawing === 'dark-background' ? (r: number, c: number) => r < size && !isDark(r, c) : (r: number, c: number) => isDark(r, c);
  const lines: string[] = [];
  for (let row = 0; row < size; row += 2) {
    let line = '';
    for (let col = 0; col < size; col++) {
      const top = ink(row, col);
      const bottom = row + 1 < size && ink(row + 1, col);
      line += top ? (bottom ? '█' : '▀') : bottom ? '▄' : ' ';
    }
    lines.push(drawing === 'colour' ? `${BLACK_ON_WHITE}${line}${RESET}` : line);
  }
  return lines;
}

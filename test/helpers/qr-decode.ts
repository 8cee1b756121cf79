// Independent decoders for QR tests: jsQR on the pixels of a PNG; SVG rasterised by sharp (librsvg)
// first; PDF rasterised by poppler's pdftoppm first. None shares code with the server's encoder.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsQR from 'jsqr';
import sharp from 'sharp';

export async function decodePng(png: Buffer): Promise<string | null> {
  // A white margin helps when a code is drawn on a coloured background to the image's edge.
  const { data, info } = await sharp(png).flatten({ background: '#ffffff' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const found = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height);
  return found?.data ?? null;
}

export async function decodeSvg(svg: Buffer): Promise<string | null> {
  return decodePng(await sharp(svg).png().toBuffer());
}

export function pdfToPng(pdf: Buffer): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'hop-qr-pdf-'));
  try {
    writeFileSync(join(dir, 'code.pdf'), pdf);
    const res = spawnSync('pdftoppm', ['-png', '-r', '72', '-singlefile', join(dir, 'code.pdf'), join(dir, 'page')], { encoding: 'utf8' });
    if (res.error || res.status !== 0) throw new Error(`pdftoppm failed (install poppler-utils): ${res.error?.message ?? res.stderr}`);
    return readFileSync(join(dir, 'page.png'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function decodePdf(pdf: Buffer): Promise<string | null> {
  return decodePng(pdfToPng(pdf));
}

export async function decode(format: string, bytes: Buffer): Promise<string | null> {
  if (format === 'svg') return decodeSvg(bytes);
  if (format === 'pdf') return decodePdf(bytes);
  return decodePng(bytes);
}

/** zbarimg (Debian zbar-tools) on a PNG, when installed: a second, unrelated decoder. */
export function zbarDecode(png: Buffer): string | null | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'hop-qr-zbar-'));
  try {
    writeFileSync(join(dir, 'code.png'), png);
    const res = spawnSync('zbarimg', ['--quiet', '--raw', join(dir, 'code.png')], { encoding: 'utf8' });
    if (res.error) return undefined;
    return res.status === 0 ? res.stdout.trim() : null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The colours a terminal theme gives text that sets none. */
export const THEMES = { dark: { fg: 0xe0, bg: 0x1e }, light: { fg: 0x20, bg: 0xfa } } as const;

/**
 * What a terminal shows for text drawn with half blocks, as grey pixels: each character one pixel
 * wide and two high (its top and bottom halves), in the theme's colours unless SGR codes set
 * 256-colour grey values (16 black, 231 white, 232-255 the grey ramp); a margin of the theme's
 * background around it, as the rest of the terminal is. Then scaled up and decoded by jsQR,
 * without its retry on inverted images: many phone scanners make no such retry.
 */
export function decodeTerminalText(text: string, theme: keyof typeof THEMES): string | null {
  const { fg: themeFg, bg: themeBg } = THEMES[theme];
  const grey = (n: number) => (n === 16 ? 0 : n === 231 ? 255 : n >= 232 ? 8 + (n - 232) * 10 : NaN);
  const rows: number[][] = [];
  let fg = themeFg;
  let bg = themeBg;
  for (const line of text.split('\n').filter((l) => /^(\x1b\[[0-9;]*m|[ ▀▄█])+$/.test(l))) {
    const top: number[] = [];
    const bottom: number[] = [];
    for (const [, sgr, ch] of line.matchAll(/\x1b\[([0-9;]*)m|([ ▀▄█])/g)) {
      if (ch === undefined) {
        const codes = (sgr || '0').split(';').map(Number);
        for (let i = 0; i < codes.length; i++) {
          if (codes[i] === 0) [fg, bg] = [themeFg, themeBg];
          else if (codes[i] === 39) fg = themeFg;
          else if (codes[i] === 49) bg = themeBg;
          else if ((codes[i] === 38 || codes[i] === 48) && codes[i + 1] === 5) {
            const value = grey(codes[i + 2]!);
            if (Number.isNaN(value)) throw new Error(`colour ${codes[i + 2]} is not a grey this decoder knows`);
            if (codes[i] === 38) fg = value;
            else bg = value;
            i += 2;
          } else throw new Error(`SGR ${codes[i]} is not handled by this decoder`);
        }
        continue;
      }
      top.push(ch === '█' || ch === '▀' ? fg : bg);
      bottom.push(ch === '█' || ch === '▄' ? fg : bg);
    }
    rows.push(top, bottom);
  }
  if (!rows.length) return null;
  const margin = 6;
  const scale = 6;
  const width = (Math.max(...rows.map((r) => r.length)) + 2 * margin) * scale;
  const height = (rows.length + 2 * margin) * scale;
  const pixels = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const row = rows[Math.floor(y / scale) - margin];
      const value = row?.[Math.floor(x / scale) - margin] ?? themeBg;
      pixels.set([value, value, value, 255], (y * width + x) * 4);
    }
  }
  return jsQR(pixels, width, height, { inversionAttempts: 'dontInvert' })?.data ?? null;
}

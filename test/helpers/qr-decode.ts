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

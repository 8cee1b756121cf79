import QRCode from 'qrcode';
import sharp, { type OverlayOptions } from 'sharp';
import PDFDocument from 'pdfkit';
import type { QrErrorCorrection, QrFormat } from '@hop/shared';
import { QUIET_ZONE, codeWithLogo, logoBox } from './qr-logo-fit.js';


export interface RenderOptions {
  text: string;
  format: QrFormat;
  size: number;
  errorCorrection: QrErrorCorrection;
  foregroundColor: string;
  backgroundColor: string;
  /** A PNG already passed through `prepareLogo`. */
  logo?: Buffer | null;
  logoSize?: number | null;
}

export interface Rendered {
  bytes: Buffer;
  contentType: string;
}

export const CONTENT_TYPES: Record<QrFormat, string> = { png: 'image/png', svg: 'image/svg+xml', pdf: 'application/pdf' };

interface Matrix {
  /** Modules per side, without the quiet zone. */
  count: number;
  dark: (row: number, col: number) => boolean;
}

function matrixOf(o: RenderOptions): Matrix {
  const qr = o.logo && o.logoSize ? codeWithLogo(o.text, o.errorCorrection, o.logoSize) : QRCode.create(o.text, { errorCorrectionLevel: o.errorCorrection });
  if (!qr) throw new Error(`no QR version leaves a logo of ${o.logoSize}% at ${o.errorCorrection} readable`);
  const { size, data } = qr.modules;
  return { count: size, dark: (r, c) => data[r * size + c] === 1 };
}

/** Horizontal runs of dark modules, in whole-image module coordinates: one rectangle each. */
function runs(m: Matrix): { x: number; y: number; w: number }[] {
  const out: { x: number; y: number; w: number }[] = [];
  for (let r = 0; r < m.count; r++) {
    let c = 0;
    while (c < m.count) {
      if (!m.dark(r, c)) {
        c++;
        continue;
      }
      const start = c;
      while (c < m.count && m.dark(r, c)) c++;
      out.push({ x: start + QUIET_ZONE, y: r + QUIET_ZONE, w: c - start });
    }
  }
  return out;
}

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const num = (n: number) => Number(n.toFixed(3)).toString();

/** SVG: one path of module runs on a background, in module units scaled to `size` pixels. */
function renderSvg(o: RenderOptions, m: Matrix): Buffer {
  const total = m.count + 2 * QUIET_ZONE;
  const path = runs(m).map((r) => `M${r.x} ${r.y}h${r.w}v1h-${r.w}z`).join('');
  let logo = '';
  if (o.logo && o.logoSize) {
    const b = logoBox(total, o.logoSize);
    logo = `<rect x="${num(b.clearAt)}" y="${num(b.clearAt)}" width="${num(b.clear)}" height="${num(b.clear)}" fill="${o.backgroundColor}"/>`
      + `<image x="${num(b.logoAt)}" y="${num(b.logoAt)}" width="${num(b.side)}" height="${num(b.side)}" preserveAspectRatio="xMidYMid meet" href="data:image/png;base64,${o.logo.toString('base64')}"/>`;
  }
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n`
    + `<svg xmlns="http://www.w3.org/2000/svg" width="${o.size}" height="${o.size}" viewBox="0 0 ${total} ${total}" shape-rendering="crispEdges">`
    + `<rect width="${total}" height="${total}" fill="${o.backgroundColor}"/>`
    + `<path fill="${o.foregroundColor}" d="${path}"/>${logo}</svg>\n`,
  );
}

/**
 * PNG: the pixels are written straight from the matrix (each pixel takes the module under it,
 * so edges stay sharp at any size), then sharp composites the logo and encodes. Rasterising the
 * SVG instead costs several times more at 1024 px and blurs module edges.
 */
async function renderPng(o: RenderOptions, m: Matrix): Promise<Buffer> {
  const total = m.count + 2 * QUIET_ZONE;
  const { size } = o;
  const fg = rgb(o.foregroundColor);
  const bg = rgb(o.backgroundColor);
  const pixels = Buffer.alloc(size * size * 3);
  const moduleOf = new Int32Array(size);
  for (let p = 0; p < size; p++) moduleOf[p] = Math.floor((p * total) / size) - QUIET_ZONE;
  const row = Buffer.alloc(size * 3);
  let lastModuleRow = Number.NaN;
  for (let y = 0; y < size; y++) {
    const mr = moduleOf[y];
    if (mr !== lastModuleRow) {
      for (let x = 0; x < size; x++) {
        const mc = moduleOf[x];
        const dark = mr >= 0 && mr < m.count && mc >= 0 && mc < m.count && m.dark(mr, mc);
        const c = dark ? fg : bg;
        row[x * 3] = c[0];
        row[x * 3 + 1] = c[1];
        row[x * 3 + 2] = c[2];
      }
      lastModuleRow = mr;
    }
    row.copy(pixels, y * size * 3);
  }
  const composites: OverlayOptions[] = [];
  if (o.logo && o.logoSize) {
    const b = logoBox(total, o.logoSize);
    const scale = size / total;
    const clearAt = Math.round(b.clearAt * scale);
    const clearEnd = Math.round((b.clearAt + b.clear) * scale);
    for (let y = clearAt; y < clearEnd; y++) {
      for (let x = clearAt; x < clearEnd; x++) {
        const i = (y * size + x) * 3;
        pixels[i] = bg[0];
        pixels[i + 1] = bg[1];
        pixels[i + 2] = bg[2];
      }
    }
    const side = Math.max(1, Math.round(b.side * scale));
    const input = await sharp(o.logo).resize(side, side, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } }).png().toBuffer();
    const at = Math.round((size - side) / 2);
    composites.push({ input, left: at, top: at });
  }
  return sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
    .composite(composites)
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
}

/** PDF: a page of `size` points with the modules drawn as vector rectangles (no bitmap but the logo). */
function renderPdf(o: RenderOptions, m: Matrix): Promise<Buffer> {
  const total = m.count + 2 * QUIET_ZONE;
  const scale = o.size / total;
  const doc = new PDFDocument({ size: [o.size, o.size], margin: 0, compress: true, info: { Title: 'QR code', Creator: 'Hop' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.rect(0, 0, o.size, o.size).fill(o.backgroundColor);
  for (const r of runs(m)) doc.rect(r.x * scale, r.y * scale, r.w * scale, scale);
  doc.fill(o.foregroundColor);
  if (o.logo && o.logoSize) {
    const b = logoBox(total, o.logoSize);
    doc.rect(b.clearAt * scale, b.clearAt * scale, b.clear * scale, b.clear * scale).fill(o.backgroundColor);
    doc.image(o.logo, b.logoAt * scale, b.logoAt * scale, { fit: [b.side * scale, b.side * scale], align: 'center', valign: 'center' });
  }
  doc.end();
  return done;
}

export async function renderQr(o: RenderOptions): Promise<Rendered> {
  const m = matrixOf(o);
  const bytes = o.format === 'svg' ? renderSvg(o, m) : o.format === 'pdf' ? await renderPdf(o, m) : await renderPng(o, m);
  return { bytes, contentType: CONTENT_TYPES[o.format] };
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A logo never needs more than the largest code's width; beyond that it is a decompression bomb. */
const MAX_LOGO_PIXELS = 4096 * 4096;

/**
 * Checks that bytes are a PNG (by its signature, then by decoding it) and returns it as an 8-bit
 * RGBA PNG at most 1,024 px wide, which every renderer (sharp, librsvg, pdfkit) reads alike.
 * Returns the reason as a string when the bytes are not a usable PNG.
 */
export async function prepareLogo(bytes: Buffer): Promise<Buffer | string> {
  if (bytes.length < PNG_MAGIC.length || !bytes.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) return 'is not a PNG image (its bytes do not start with the PNG signature)';
  try {
    const img = sharp(bytes, { limitInputPixels: MAX_LOGO_PIXELS, failOn: 'error' });
    const meta = await img.metadata();
    if (meta.format !== 'png') return 'is not a PNG image';
    return await img.resize(1024, 1024, { fit: 'inside', withoutEnlargement: true }).ensureAlpha().png().toBuffer();
  } catch (err) {
    return `is not a readable PNG image (${(err as Error).message})`;
  }
}

import { QR_DEFAULT_LOGO_SIZE, type CreateQrCodeBodySchema, type QrErrorCorrection } from '@hop/shared';
import type { z } from 'zod';
import { validationError } from '../errors.js';

export type CreateQrInput = z.output<typeof CreateQrCodeBodySchema>;

export interface QrOptions {
  format: CreateQrInput['format'];
  size: number;
  errorCorrection: QrErrorCorrection;
  foregroundColor: string;
  backgroundColor: string;
  logoUrl: string | null;
  logoSize: number | null;
}

/** WCAG 2 relative luminance of a #rrggbb colour. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export const MIN_CONTRAST = 3;

/**
 * The rules of docs/api.md, QR codes that span fields, and the defaults that depend on them: a logo hides
 * part of the code, so it needs Q or H (H by default); scanners look for dark modules on a light
 * background with enough contrast.
 */
export function resolveQrOptions(body: CreateQrInput): QrOptions {
  const logoUrl = body.logoUrl ?? null;
  if (!logoUrl && body.logoSize !== undefined) throw validationError('logoSize', 'only applies with a logoUrl');
  if (logoUrl && (body.errorCorrection === 'L' || body.errorCorrection === 'M')) {
    throw validationError('errorCorrection', `a logo covers part of the code, so it needs Q or H, not ${body.errorCorrection}`);
  }
  const fg = body.foregroundColor;
  const bg = body.backgroundColor;
  if (relativeLuminance(fg) > relativeLuminance(bg)) {
    throw validationError('foregroundColor', `must be darker than backgroundColor (${fg} is lighter than ${bg}); scanners expect dark modules on a light background`);
  }
  const ratio = contrastRatio(fg, bg);
  if (ratio < MIN_CONTRAST) {
    throw validationError('foregroundColor', `contrast ratio of ${fg} on ${bg} is ${ratio.toFixed(2)}:1, under the ${MIN_CONTRAST}:1 scanners need`);
  }
  return {
    format: body.format,
    size: body.size,
    errorCorrection: body.errorCorrection ?? (logoUrl ? 'H' : 'M'),
    foregroundColor: fg,
    backgroundColor: bg,
    logoUrl,
    logoSize: logoUrl ? (body.logoSize ?? QR_DEFAULT_LOGO_SIZE) : null,
  };
}

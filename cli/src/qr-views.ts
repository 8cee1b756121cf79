import type { QrCode } from '@hop/shared';
import { dateColumn, type Column } from './render.js';

/** What `qr list` shows; `--json` has every field. */
export const qrColumns: Column<QrCode>[] = [
  { header: 'ID', value: (q) => q.id },
  { header: 'FORMAT', value: (q) => q.format },
  { header: 'SIZE', value: (q) => q.size, drop: 5 },
  { header: 'EC', value: (q) => q.errorCorrection, drop: 6 },
  { header: 'COLOURS', value: (q) => `${q.foregroundColor} on ${q.backgroundColor}`, drop: 7 },
  { header: 'LOGO', value: (q) => (q.logoUrl ? `${q.logoSize}%` : ''), drop: 8 },
  { header: 'DOWNLOAD', value: (q) => q.publicUrl, cutTo: 20, drop: 3 },
  dateColumn('CREATED', (q) => q.createdAt),
];

export const qrRecord = (q: QrCode) => ({
  id: q.id,
  linkId: q.linkId,
  scanUrl: q.scanUrl,
  publicUrl: q.publicUrl,
  format: q.format,
  size: q.size,
  errorCorrection: q.errorCorrection,
  foregroundColor: q.foregroundColor,
  backgroundColor: q.backgroundColor,
  logoUrl: q.logoUrl,
  logoSize: q.logoSize,
  createdAt: q.createdAt,
});

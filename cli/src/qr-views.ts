import type { QrCode } from '@hop/shared';
import type { Column } from './render.js';

/** What `qr list` shows; `--json` has every field. */
export const qrColumns: Column<QrCode>[] = [
  { header: 'ID', value: (q) => q.id },
  { header: 'FORMAT', value: (q) => q.format },
  { header: 'SIZE', value: (q) => q.size },
  { header: 'EC', value: (q) => q.errorCorrection },
  { header: 'COLOURS', value: (q) => `${q.foregroundColor} on ${q.backgroundColor}` },
  { header: 'LOGO', value: (q) => (q.logoUrl ? `${q.logoSize}%` : '') },
  { header: 'DOWNLOAD', value: (q) => q.publicUrl },
  { header: 'CREATED', value: (q) => q.createdAt },
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

import type { QrCode } from '@hop/shared';
import type { HopClient } from '@hop/shared/client';
import { UsageError } from './errors.js';

export const isQrId = (ref: string) => /^qr_[0-9A-Za-z]{16,}$/.test(ref);

/** The newest QR code of a link; `ref` is the link as typed, to name it if it has none. */
export async function newestQrCode(api: HopClient, linkId: string, ref: string): Promise<QrCode> {
  const qr = (await api.call('listQrCodes', { params: { linkId }, query: { limit: 1 } })).data[0];
  if (!qr) throw new UsageError(`${ref} has no QR code yet: create one with \`hop qr create ${ref}\``);
  return qr;
}

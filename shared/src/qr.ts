import { z } from 'zod';
import { absoluteUrl } from './urls.js';
import { idSchema, TimestampSchema } from './ids.js';
import { PageQuerySchema } from './envelope.js';

export const QR_FORMATS = ['png', 'svg', 'pdf'] as const;
export const QrFormatSchema = z.enum(QR_FORMATS);
export type QrFormat = z.infer<typeof QrFormatSchema>;

/** Recovery: L 7%, M 15%, Q 25%, H 30% of the code may be lost (or covered by a logo). */
export const QR_ERROR_CORRECTIONS = ['L', 'M', 'Q', 'H'] as const;
export const QrErrorCorrectionSchema = z.enum(QR_ERROR_CORRECTIONS);
export type QrErrorCorrection = z.infer<typeof QrErrorCorrectionSchema>;

export const QR_MIN_SIZE = 128;
export const QR_MAX_SIZE = 4096;
export const QR_DEFAULT_SIZE = 512;
export const QR_DEFAULT_LOGO_SIZE = 20;

export const HexColorSchema = z
  .string()
  .regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour of the form #rrggbb')
  .transform((c) => c.toLowerCase())
  .meta({ example: '#1a1a2e' });

/**
 * docs/api.md, QR codes. Cross-field rules (contrast and polarity of the colours, a logo forcing Q or H,
 * `logoSize` only with a logo) are the server's, answered as 400 with the reason.
 */
export const CreateQrCodeBodySchema = z.strictObject({
  format: QrFormatSchema.default('png'),
  size: z.number().int().min(QR_MIN_SIZE).max(QR_MAX_SIZE).default(QR_DEFAULT_SIZE),
  /** Default M, or H with a logo; a logo with L or M is refused. */
  errorCorrection: QrErrorCorrectionSchema.optional(),
  foregroundColor: HexColorSchema.default('#000000'),
  backgroundColor: HexColorSchema.default('#ffffff'),
  /** An HTTPS URL of a PNG of at most 1 MiB, fetched once when the code is created. */
  logoUrl: absoluteUrl().nullable().optional().meta({ example: 'https://example.com/logo.png' }),
  /** Percent of the code's width the logo takes (default 20). */
  logoSize: z.number().int().min(1).max(30).optional(),
});
export type CreateQrCodeBody = z.input<typeof CreateQrCodeBodySchema>;

export const QrCodeSchema = z
  .object({
    id: idSchema('qr'),
    linkId: idSchema('lnk'),
    /** Public, no credential: the rendered image, cached for a long time (it never changes). */
    publicUrl: z.string(),
    /** What the code encodes: `{scheme}://{domain}/q/{code}`, which follows the link's changes. */
    scanUrl: z.string(),
    format: QrFormatSchema,
    size: z.number().int(),
    errorCorrection: QrErrorCorrectionSchema,
    foregroundColor: z.string(),
    backgroundColor: z.string(),
    logoUrl: z.string().nullable(),
    /** null without a logo. */
    logoSize: z.number().int().nullable(),
    /** The user who made it (members delete only their own); null once they left the workspace. */
    createdBy: z.string().nullable(),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'QrCode' });
export type QrCode = z.infer<typeof QrCodeSchema>;

export const QrParamsSchema = z.object({ qrId: idSchema('qr') });
export const LinkQrParamsSchema = z.object({ linkId: idSchema('lnk') });
export const ListQrCodesQuerySchema = PageQuerySchema.strict();
export type ListQrCodesQuery = z.input<typeof ListQrCodesQuerySchema>;

export const QrAnalyticsQuerySchema = z.strictObject({
  days: z.coerce.number().int().min(1).max(730).default(30),
});
export type QrAnalyticsQuery = z.input<typeof QrAnalyticsQuerySchema>;

export const QrAnalyticsSchema = z
  .object({
    start: z.iso.date(),
    end: z.iso.date(),
    totalScans: z.number().int(),
    /** One visitor per UTC day, as unique clicks are counted. */
    uniqueScans: z.number().int(),
    /** Sorted by scans; `country` is null where unknown. */
    scansByCountry: z.array(z.object({ country: z.string().nullable(), scans: z.number().int() })),
    timeseries: z.array(z.object({ date: z.iso.date(), scans: z.number().int(), uniqueScans: z.number().int() })),
  })
  .meta({ id: 'QrAnalytics' });
export type QrAnalytics = z.infer<typeof QrAnalyticsSchema>;

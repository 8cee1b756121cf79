import { z } from 'zod';
import { idSchema, TimestampSchema } from './ids.js';
import { LinkSchema } from './links.js';

export const EVENT_TYPES = ['link.clicked', 'link.created', 'link.updated', 'link.deleted', 'link.expired', 'link.password_locked', 'qr.scanned', 'ci.token_exchanged'] as const;
export const EventTypeSchema = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventTypeSchema>;

// The `data` of each event type. Objects, not strict objects: a receiver built against this
// version keeps working when a later one adds a field. A field added here is published in the
// OpenAPI document and checked against every emitted event by test/api/event-payloads.test.ts.

export const LinkCreatedDataSchema = z.object({ link: LinkSchema });
export type LinkCreatedData = z.infer<typeof LinkCreatedDataSchema>;

export const LinkUpdatedDataSchema = z.object({
  link: LinkSchema,
  /** Names (as on the wire) of the fields the update changed; `password` when it was set or cleared. */
  changes: z.array(z.string()),
});
export type LinkUpdatedData = z.infer<typeof LinkUpdatedDataSchema>;

export const LinkDeletedDataSchema = z.object({ link: LinkSchema });
export type LinkDeletedData = z.infer<typeof LinkDeletedDataSchema>;

export const LinkExpiredDataSchema = z.object({
  link: LinkSchema.pick({ id: true, slug: true, url: true, title: true, domain: true }).extend({ expiresAt: TimestampSchema }),
  expiredAt: TimestampSchema,
});
export type LinkExpiredData = z.infer<typeof LinkExpiredDataSchema>;

/**
 * A password-protected link took so many wrong passwords, from every visitor together, that its
 * password form is closed to everyone until `lockedUntil` (visitors who unlocked it before keep
 * their access). Sent once per lock.
 */
export const LinkPasswordLockedDataSchema = z.object({
  link: LinkSchema.pick({ id: true, slug: true, domain: true }),
  /** Wrong passwords in the window that closed the form. */
  failures: z.number().int(),
  lockedUntil: TimestampSchema,
});
export type LinkPasswordLockedData = z.infer<typeof LinkPasswordLockedDataSchema>;

/** One visit of a short link: the `data` of link.clicked, and of qr.scanned with its `qrId`. */
export const ClickDataSchema = z.object({
  linkId: idSchema('lnk'),
  slug: z.string(),
  /** Where the visitor was sent. */
  destination: z.string(),
  domain: z.string(),
  clickedAt: TimestampSchema,
  /** ISO 3166-1 alpha-2, when known. */
  country: z.string().nullable(),
  city: z.string().nullable(),
  device: z.enum(['mobile', 'desktop', 'tablet']),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  /** The referring site's domain, never its path or query. */
  referrer: z.string().nullable(),
  /** Bots are reported, but count in no analytics. */
  isBot: z.boolean(),
  /** Which destination served the visit: `default`, `ios`, `android`, `rule:N`, `variant:N`. */
  target: z.string(),
});
export type ClickData = z.infer<typeof ClickDataSchema>;

export const LinkClickedDataSchema = ClickDataSchema;
export type LinkClickedData = z.infer<typeof LinkClickedDataSchema>;

export const QrScannedDataSchema = ClickDataSchema.extend({ qrId: idSchema('qr') });
export type QrScannedData = z.infer<typeof QrScannedDataSchema>;

/** A CI job exchanged its OIDC ID token for an access token under a CI trust (docs/ci.md). */
export const CiTokenExchangedDataSchema = z.object({
  trustId: idSchema('cit'),
  issuer: z.string(),
  /** The ID token's `sub`, e.g. `repo:acme/site:ref:refs/heads/main`. */
  subject: z.string(),
  repository: z.string(),
  ref: z.string().nullable(),
  environment: z.string().nullable(),
  workflow: z.string().nullable(),
  /** The CI run that asked (GitHub's `run_id`, GitLab's `pipeline_id`), when the token names it. */
  runId: z.string().nullable(),
  scopes: z.array(z.string()),
  expiresAt: TimestampSchema,
});
export type CiTokenExchangedData = z.infer<typeof CiTokenExchangedDataSchema>;

/** The `data` schema of each event type: the one table emitters, samples, clients and docs read. */
export const EVENT_DATA_SCHEMAS = {
  'link.clicked': LinkClickedDataSchema,
  'link.created': LinkCreatedDataSchema,
  'link.updated': LinkUpdatedDataSchema,
  'link.deleted': LinkDeletedDataSchema,
  'link.expired': LinkExpiredDataSchema,
  'link.password_locked': LinkPasswordLockedDataSchema,
  'qr.scanned': QrScannedDataSchema,
  'ci.token_exchanged': CiTokenExchangedDataSchema,
} as const satisfies Record<EventType, z.ZodType>;

/** The `data` of an event of type `T`, as emitters build it. */
export type EventData<T extends EventType = EventType> = z.input<(typeof EVENT_DATA_SCHEMAS)[T]>;

/** An event's type and data together: what code that emits an event hands to the outbox. */
export type EventPayload = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];

const EVENT_SCHEMA_IDS: Record<EventType, string> = {
  'link.clicked': 'LinkClickedEvent',
  'link.created': 'LinkCreatedEvent',
  'link.updated': 'LinkUpdatedEvent',
  'link.deleted': 'LinkDeletedEvent',
  'link.expired': 'LinkExpiredEvent',
  'link.password_locked': 'LinkPasswordLockedEvent',
  'qr.scanned': 'QrScannedEvent',
  'ci.token_exchanged': 'CiTokenExchangedEvent',
};

/** The envelope of every event, as delivered to webhooks and the event stream. */
function eventSchema<T extends EventType>(type: T) {
  return z
    .object({
      id: idSchema('evt'),
      type: z.literal(type),
      timestamp: TimestampSchema,
      workspaceId: idSchema('ws'),
      data: EVENT_DATA_SCHEMAS[type],
      /** Present, and true, on events sent by a webhook's `test`. */
      test: z.literal(true).optional(),
    })
    .meta({ id: EVENT_SCHEMA_IDS[type] });
}

export const LinkClickedEventSchema = eventSchema('link.clicked');
export const LinkCreatedEventSchema = eventSchema('link.created');
export const LinkUpdatedEventSchema = eventSchema('link.updated');
export const LinkDeletedEventSchema = eventSchema('link.deleted');
export const LinkExpiredEventSchema = eventSchema('link.expired');
export const LinkPasswordLockedEventSchema = eventSchema('link.password_locked');
export const QrScannedEventSchema = eventSchema('qr.scanned');
export const CiTokenExchangedEventSchema = eventSchema('ci.token_exchanged');

/** Any event, told apart by `type`. */
export const EventSchema = z
  .discriminatedUnion('type', [
    LinkClickedEventSchema, LinkCreatedEventSchema, LinkUpdatedEventSchema, LinkDeletedEventSchema,
    LinkExpiredEventSchema, LinkPasswordLockedEventSchema, QrScannedEventSchema, CiTokenExchangedEventSchema,
  ])
  .meta({ id: 'Event' });
export type HopEvent = z.infer<typeof EventSchema>;
/** An event of one type. */
export type HopEventOf<T extends EventType> = Extract<HopEvent, { type: T }>;

/** A visit: link.clicked or qr.scanned (what `hop links tail` follows). */
export const VisitEventSchema = z.discriminatedUnion('type', [LinkClickedEventSchema, QrScannedEventSchema]);
export type VisitEvent = z.infer<typeof VisitEventSchema>;

/** Each event type with its schema's id and what it announces: the OpenAPI document's webhooks. */
export const EVENT_CATALOGUE: readonly { type: EventType; schemaId: string; summary: string }[] = [
  { type: 'link.created', summary: 'A link was created (one event per link of a bulk creation)' },
  { type: 'link.updated', summary: 'A link was changed; `changes` names the fields' },
  { type: 'link.deleted', summary: 'A link was deleted; `link` is the link as it was' },
  { type: 'link.expired', summary: 'A link passed its `expiresAt` (once per expiry)' },
  { type: 'link.password_locked', summary: 'Wrong passwords from every visitor together closed a link\'s password form for a while (once per lock)' },
  { type: 'link.clicked', summary: 'A short link was visited (bots included, with `isBot`)' },
  { type: 'qr.scanned', summary: 'A QR code was scanned' },
  { type: 'ci.token_exchanged', summary: 'A CI job exchanged its OIDC ID token for an access token under a CI trust' },
].map((e) => ({ ...e, type: e.type as EventType, schemaId: EVENT_SCHEMA_IDS[e.type as EventType] }));

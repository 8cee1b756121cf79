import { z } from 'zod';
import { idSchema, TimestampSchema } from './ids.js';
import { WorkspaceParamsSchema } from './workspaces.js';

/** Where the TXT record that proves control of a domain lives (docs/api.md, Domains and tags). */
export const VERIFICATION_PREFIX = '_hop-challenge';

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A host name as a custom short domain: lower-cased, at least two labels, no scheme, port, path or
 * IP literal (an all-numeric last label is how IPv4 literals look; IPv6 ones hold `:`).
 */
export const DomainNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .refine((s) => {
    const labels = s.split('.');
    return labels.length >= 2 && labels.every((l) => LABEL.test(l)) && !/^[0-9]+$/.test(labels[labels.length - 1]);
  }, 'must be a host name such as links.example.com (no scheme, port, path or IP address)')
  .meta({ example: 'go.example.com' });

export const DomainVerificationSchema = z.object({
  type: z.literal('TXT'),
  /** `_hop-challenge.{name}` */
  name: z.string(),
  value: z.string(),
});

export const DomainSchema = z
  .object({
    id: idSchema('dom'),
    name: z.string(),
    verified: z.boolean(),
    verification: DomainVerificationSchema,
    verifiedAt: TimestampSchema.nullable(),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'Domain' });
export type Domain = z.infer<typeof DomainSchema>;

export const AddDomainBodySchema = z.strictObject({ name: DomainNameSchema });
export type AddDomainBody = z.input<typeof AddDomainBodySchema>;

export const DomainParamsSchema = WorkspaceParamsSchema.extend({ domainId: idSchema('dom') });

// The server's side of an import: the dashboard sends a service's token, the server reads that
// service's API (under its outbound address rules) and answers its links as records, which the
// dashboard plans and writes like the CLI.
import { z } from 'zod';
import { IMPORT_SOURCES } from './types.js';

export const ImportedLinkSchema = z
  .object({
    slug: z.string(),
    domain: z.string().nullable(),
    url: z.string(),
    title: z.string().nullable(),
    description: z.string().nullable(),
    tags: z.array(z.string()),
    expiresAt: z.string().nullable(),
    passwordProtected: z.boolean(),
    createdAt: z.string().nullable(),
    clicks: z.number().int().nullable(),
    ios: z.string().nullable().optional(),
    android: z.string().nullable().optional(),
    maxClicks: z.number().int().nullable().optional(),
    notCarried: z.array(z.string()),
  })
  .meta({ id: 'ImportedLink', description: 'A short link of another service as read from its API, before it is planned (docs/import.md).' });

export const ReadImportSourceBodySchema = z.strictObject({
  from: z.enum(IMPORT_SOURCES),
  /** The service's API root; the hosted service's when absent (required for Shlink and YOURLS). */
  url: z.string().max(2048).optional(),
  token: z.string().min(1).max(4096),
});
export type ReadImportSourceBody = z.infer<typeof ReadImportSourceBodySchema>;

export const ImportSourceLinksSchema = z.object({ links: z.array(ImportedLinkSchema) }).meta({ id: 'ImportSourceLinks' });

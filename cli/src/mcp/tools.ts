import { z } from 'zod';
import {
  AnalyticsQuerySchema, AnalyticsSchema, CreateLinkBodySchema, CreateQrCodeBodySchema, LinkResolutionSchema, LinkSchema,
  ListLinksQuerySchema, QrCodeSchema, ResolveLinkQuerySchema, UpdateLinkBodySchema, WorkspaceAnalyticsQuerySchema,
} from '@hop/shared';
import type { HopClient } from '@hop/shared/client';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/** What a tool acts with: the CLI's API client (its credential refreshed when due) and workspace. */
export interface ToolContext {
  api(): Promise<HopClient>;
  workspaceId: string;
  /** A link's id from its id, slug or domain/slug, looked up in the workspace. */
  linkId(ref: string): Promise<string>;
}

/**
 * One MCP tool: its input is a contract of `shared/` (a route's body or query, plus the link it
 * names), its output the route's data, and its annotations say whether it changes anything.
 */
export interface HopTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: Omit<ToolAnnotations, 'title'>;
  run(input: z.output<I>, ctx: ToolContext): Promise<z.input<O>>;
}

const tool = <I extends z.ZodObject, O extends z.ZodObject>(t: HopTool<I, O>): HopTool => t as unknown as HopTool;

// Hop's API is the whole world these tools touch: no tool reaches anything else.
const READS: HopTool['annotations'] = { readOnlyHint: true, openWorldHint: false };
const CREATES: HopTool['annotations'] = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** An update overwrites what was there; repeating one, or a delete, changes nothing more. */
const OVERWRITES: HopTool['annotations'] = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

/** A link as a person names it, as `hop links get <link>` takes it. */
const LinkRefSchema = z
  .string()
  .min(1)
  .max(320)
  .describe('the link: its id (lnk_...), its slug, or domain/slug when several domains use that slug');

// A root output schema is the resource's own shape, inlined: `.meta({ id })` would make it a bare
// `$ref`, and MCP wants an object schema at the root.
const LinkOutput = z.object(LinkSchema.shape);
const AnalyticsOutput = z.object(AnalyticsSchema.shape);
const QrCodeOutput = z.object(QrCodeSchema.shape);
const ResolutionOutput = z.object(LinkResolutionSchema.shape);
const LinkPageOutput = z.object({
  links: z.array(LinkSchema),
  nextCursor: z.string().nullable().describe('pass as `cursor` for the next page; null on the last'),
});

/** The tools of `hop mcp`, in the order a client lists them; names are CONTRACT's (docs/agents.md). */
export const HOP_TOOLS: readonly HopTool[] = [
  tool({
    name: 'create_link',
    title: 'Create a short link',
    description: 'Shorten a URL in the workspace. Returns the link, whose shortUrl is the address to share. ' +
      'Optional: slug (random if omitted), domain, title, tags, expiresAt, maxClicks, password, UTM values, rules, variants, app links, preview.',
    input: CreateLinkBodySchema,
    output: LinkOutput,
    annotations: CREATES,
    // The client's retry policy gives every write an Idempotency-Key: a retried create makes one link.
    run: async (body, ctx) => (await (await ctx.api()).call('createLink', { params: { workspaceId: ctx.workspaceId }, body })).data,
  }),
  tool({
    name: 'get_link',
    title: 'Get a link',
    description: 'One link of the workspace, by id or slug: destination, short URL, clicks, status, tags and settings.',
    input: z.object({ link: LinkRefSchema }),
    output: LinkOutput,
    annotations: READS,
    run: async ({ link }, ctx) => (await (await ctx.api()).call('getLink', {
      params: { workspaceId: ctx.workspaceId, linkId: await ctx.linkId(link) },
    })).data,
  }),
  tool({
    name: 'update_link',
    title: 'Change a link',
    description: 'Change fields of a link: `changes` holds only the fields to set (null clears one; tags replace the old ones). ' +
      'Changing url or slug changes where existing short URLs and printed QR codes lead.',
    input: z.object({ link: LinkRefSchema, changes: UpdateLinkBodySchema }),
    output: LinkOutput,
    annotations: OVERWRITES,
    run: async ({ link, changes }, ctx) => (await (await ctx.api()).call('updateLink', {
      params: { workspaceId: ctx.workspaceId, linkId: await ctx.linkId(link) }, body: changes,
    })).data,
  }),
  tool({
    name: 'list_links',
    title: 'List links',
    description: 'Links of the workspace, newest first, a page at a time (limit 1-100, default 20). ' +
      'Filter by q (words of the slug, URL or title), tags (comma-separated, all must match), domain or createdAfter.',
    input: ListLinksQuerySchema,
    output: LinkPageOutput,
    annotations: READS,
    run: async (query, ctx) => {
      const page = await (await ctx.api()).call('listLinks', { params: { workspaceId: ctx.workspaceId }, query });
      return { links: page.data, nextCursor: page.pagination.nextCursor };
    },
  }),
  tool({
    name: 'delete_link',
    title: 'Delete a link',
    description: 'Delete a link; there is no undo: its short URL and its QR codes stop working. Returns the link as it was.',
    input: z.object({ link: LinkRefSchema }),
    output: LinkOutput,
    annotations: OVERWRITES,
    run: async ({ link }, ctx) => (await (await ctx.api()).call('deleteLink', {
      params: { workspaceId: ctx.workspaceId, linkId: await ctx.linkId(link) },
    })).data,
  }),
  tool({
    name: 'link_analytics',
    title: 'Analytics of a link',
    description: 'Clicks of one link over the last `days` (default 30) or from start to end (UTC days): totals, a daily series, ' +
      'and breakdowns by country, device, browser, OS, referrer and target; groupBy totals per day, week, month or dimension.',
    input: AnalyticsQuerySchema.safeExtend({ link: LinkRefSchema }),
    output: AnalyticsOutput,
    annotations: READS,
    run: async ({ link, ...query }, ctx) => (await (await ctx.api()).call('getLinkAnalytics', {
      params: { workspaceId: ctx.workspaceId, linkId: await ctx.linkId(link) }, query,
    })).data,
  }),
  tool({
    name: 'workspace_analytics',
    title: 'Analytics of the workspace',
    description: 'Clicks across every link of the workspace, with the top links; narrow by domain, tags (comma-separated) or linkId. ' +
      'Same periods and groupBy as link_analytics.',
    input: WorkspaceAnalyticsQuerySchema,
    output: AnalyticsOutput,
    annotations: READS,
    run: async (query, ctx) => (await (await ctx.api()).call('getWorkspaceAnalytics', { params: { workspaceId: ctx.workspaceId }, query })).data,
  }),
  tool({
    name: 'create_qr',
    title: 'Create a QR code',
    description: 'Create a QR code for a link. Returns publicUrl, where anyone can download the image (png, svg or pdf), ' +
      'and scanUrl, what the code encodes: it follows the link, so later changes of destination reach printed codes.',
    input: CreateQrCodeBodySchema.extend({ link: LinkRefSchema }),
    output: QrCodeOutput,
    annotations: CREATES,
    run: async ({ link, ...body }, ctx) => (await (await ctx.api()).call('createQrCode', {
      params: { linkId: await ctx.linkId(link) }, body,
    })).data,
  }),
  tool({
    name: 'resolve_link',
    title: 'Resolve a link for a visitor',
    description: 'Where a described visitor would be sent, and why, as the redirector decides it (rules, A/B variants, app links, ' +
      'expiry): describe them by country, device, os, browser, language, ua, ip and time `at`. Records no visit.',
    input: ResolveLinkQuerySchema.extend({ link: LinkRefSchema }),
    output: ResolutionOutput,
    annotations: READS,
    run: async ({ link, ...query }, ctx) => (await (await ctx.api()).call('resolveLink', {
      params: { workspaceId: ctx.workspaceId, linkId: await ctx.linkId(link) }, query,
    })).data,
  }),
];

import { z } from 'zod';
import { TagSchema } from './links.js';
import { WorkspaceParamsSchema } from './workspaces.js';

/** A tag as the workspace uses it: its name and how many links carry it. */
export const TagSummarySchema = z
  .object({
    name: z.string(),
    linkCount: z.number().int(),
  })
  .meta({ id: 'Tag' });
export type TagSummary = z.infer<typeof TagSummarySchema>;

/** Tags are stored lower-case, so the path matches whatever case the caller writes. */
export const TagParamsSchema = WorkspaceParamsSchema.extend({ name: TagSchema });

export const RenameTagBodySchema = z.strictObject({ name: TagSchema });
export type RenameTagBody = z.input<typeof RenameTagBodySchema>;

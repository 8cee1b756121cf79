// The link form's check with the server's schemas, in a chunk of its own: the schemas (and zod)
// are built when their modules load, so the form loads them when it is first used, not when it
// renders (link-form.tsx).
import { CreateLinkBodySchema, UpdateLinkBodySchema } from '@hop/shared/links';
import { check } from '../form-errors.js';

export const checkLinkBody = (raw: unknown, update: boolean) => (update ? check(UpdateLinkBodySchema, raw) : check(CreateLinkBodySchema, raw));

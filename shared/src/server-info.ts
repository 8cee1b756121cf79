import { z } from 'zod';

/** `self-hosted` (HOP_PLANS=off, the default): every feature, no quota. `plans` (HOP_PLANS=on): the plans apply. */
export const SERVER_MODES = ['self-hosted', 'plans'] as const;
/** Who may create an account (HOP_SIGNUP): anyone, only someone holding a workspace invite, or no one. */
export const SIGNUP_MODES = ['open', 'invite', 'closed'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

/** `GET /v1/server`, public: what a client needs to know before it has an account (docs/api.md, Self-hosting). */
export const ServerInfoSchema = z
  .object({
    version: z.string(),
    mode: z.enum(SERVER_MODES),
    /** Who may sign up now: `open` on a server without any account yet, whatever HOP_SIGNUP says. */
    signup: z.enum(SIGNUP_MODES),
  })
  .meta({ id: 'ServerInfo' });
export type ServerInfo = z.infer<typeof ServerInfoSchema>;

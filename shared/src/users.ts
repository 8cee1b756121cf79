import { z } from 'zod';
import { idSchema, TimestampSchema } from './ids.js';
export { inviteTokenFrom } from './constants.js';

export const EmailSchema = z.email().max(254);
/** Account passwords: at least 8 characters (docs/api.md, Limits), at most 256 so hashing stays bounded. */
export const AccountPasswordSchema = z.string().min(8, 'must be at least 8 characters long').max(256, 'must be at most 256 characters long');

export const UserSchema = z
  .object({ id: idSchema('usr'), email: z.string(), name: z.string(), createdAt: TimestampSchema })
  .meta({ id: 'User' });
export type User = z.infer<typeof UserSchema>;

/** The secret of a workspace invite (`hopinv_...`), as its acceptUrl carries it. */
export const InviteTokenSchema = z.string().min(10).max(200);

export const SignupBodySchema = z.strictObject({
  email: EmailSchema,
  password: AccountPasswordSchema,
  name: z.string().trim().min(1).max(100),
  /**
   * A workspace invite sent to this e-mail: the new account joins that workspace with the invited
   * role. Required when the server takes sign-ups by invite only (HOP_SIGNUP=invite).
   */
  inviteToken: InviteTokenSchema.optional(),
});
export type SignupBody = z.infer<typeof SignupBodySchema>;

export const LoginBodySchema = z.strictObject({ email: EmailSchema, password: z.string().min(1).max(256) });
export type LoginBody = z.infer<typeof LoginBodySchema>;

/** Signup and login answer the user and a 12-hour dashboard-session JWT. */
export const AuthResultSchema = z.object({ user: UserSchema, token: z.string(), expiresAt: TimestampSchema });
export type AuthResult = z.infer<typeof AuthResultSchema>;

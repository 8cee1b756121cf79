import { z } from 'zod';
import { idSchema, TimestampSchema } from './ids.js';
import { AccountPasswordSchema, EmailSchema, UserSchema } from './users.js';

/** `GET /v1/me`: the user, and whether they are the server's operator (its first account). */
export const MeSchema = UserSchema.extend({ isOperator: z.boolean() }).meta({ id: 'Me' });
export type Me = z.infer<typeof MeSchema>;

/**
 * A new account password is checked twice: its length here, and by the server against common
 * passwords, whitespace only and the account's e-mail (400 VALIDATION_ERROR saying which).
 */
export const ChangePasswordBodySchema = z.strictObject({
  currentPassword: z.string().min(1).max(256),
  newPassword: AccountPasswordSchema,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

export const PasswordResetBodySchema = z.strictObject({ email: EmailSchema });
export type PasswordResetBody = z.infer<typeof PasswordResetBodySchema>;

export const ConfirmPasswordResetBodySchema = z.strictObject({
  token: z.string().min(1).max(200),
  newPassword: AccountPasswordSchema,
});
export type ConfirmPasswordResetBody = z.infer<typeof ConfirmPasswordResetBodySchema>;

/** `POST /v1/auth/password-reset` answers 202 whatever the e-mail: nothing tells who has an account. */
export const PasswordResetAcceptedSchema = z.object({ accepted: z.literal(true) });
export type PasswordResetAccepted = z.infer<typeof PasswordResetAcceptedSchema>;

/** A one-time reset link an operator hands to a user (30 minutes, single use). */
export const PasswordResetLinkSchema = z
  .object({ userId: idSchema('usr'), url: z.string(), expiresAt: TimestampSchema })
  .meta({ id: 'PasswordResetLink' });
export type PasswordResetLink = z.infer<typeof PasswordResetLinkSchema>;

export const UserParamsSchema = z.strictObject({ userId: idSchema('usr') });

/** What a password change or reset did besides: how many other sessions and CLI logins it ended. */
export const PasswordChangedSchema = z.object({ endedSessions: z.number().int().min(0) });
export type PasswordChanged = z.infer<typeof PasswordChangedSchema>;

/** A sign-in: the dashboard's, the OAuth pages' cookie, or a session token the CLI stored. */
export const SessionSchema = z
  .object({
    id: idSchema('ses'),
    createdAt: TimestampSchema,
    /** Updated at most once a minute. */
    lastUsedAt: TimestampSchema,
    userAgent: z.string().nullable(),
    /** The session of the token this request was made with. */
    current: z.boolean(),
  })
  .meta({ id: 'Session' });
export type Session = z.infer<typeof SessionSchema>;

export const SessionParamsSchema = z.strictObject({ sessionId: idSchema('ses') });

export const EndedSessionsSchema = z.object({ ended: z.number().int().min(0) });
export type EndedSessions = z.infer<typeof EndedSessionsSchema>;

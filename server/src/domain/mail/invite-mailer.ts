import type { CreatedInvite } from '@hop/shared';

/** What an invite e-mail says: who invites, to which workspace, with which role, and the link. */
export interface InviteMail {
  invite: CreatedInvite;
  workspaceName: string;
  inviterName: string | null;
}

export type SendInvite = (mail: InviteMail) => Promise<void>;

/**
 * Invites by e-mail over `SMTP_URL` (docs/api.md, Access), through nodemailer. The sender address is the
 * URL's `from` query parameter, else `Hop <no-reply@{host of the base URL}>`; the other query
 * parameters are nodemailer's own (`?pool=true`, ...). nodemailer is loaded on first use.
 */
export function createInviteMailer(opts: { smtpUrl: string; baseUrl: string }): SendInvite {
  const url = new URL(opts.smtpUrl);
  const from = url.searchParams.get('from') ?? `Hop <no-reply@${new URL(opts.baseUrl).hostname}>`;
  url.searchParams.delete('from');
  let transport: Promise<import('nodemailer').Transporter> | undefined;
  const connect = async () => (await import('nodemailer')).createTransport(url.toString());

  return async ({ invite, workspaceName, inviterName }) => {
    transport ??= connect();
    const who = inviterName ?? 'Someone';
    const text = [
      `${who} invited you to join the workspace "${workspaceName}" on Hop as ${invite.role}.`,
      '',
      `Accept the invite (sign in with ${invite.email}; it expires ${invite.expiresAt}):`,
      invite.acceptUrl,
      '',
      `Or with the CLI: hop invites accept ${invite.token}`,
    ].join('\n');
    await (await transport).sendMail({
      from,
      to: invite.email,
      subject: `${who} invited you to ${workspaceName} on Hop`,
      text,
    });
  };
}

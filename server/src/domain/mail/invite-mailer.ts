import type { CreatedInvite } from '@hop/shared';
import type { SendMail } from './mailer.js';

/** What an invite e-mail says: who invites, to which workspace, with which role, and the link. */
export interface InviteMail {
  invite: CreatedInvite;
  workspaceName: string;
  inviterName: string | null;
}

export type SendInvite = (mail: InviteMail) => Promise<void>;

/** Invites by e-mail (docs/api.md, Access), over the server's mailer. */
export function createInviteMailer(send: SendMail): SendInvite {
  return async ({ invite, workspaceName, inviterName }) => {
    const who = inviterName ?? 'Someone';
    const text = [
      `${who} invited you to join the workspace "${workspaceName}" on Hop as ${invite.role}.`,
      '',
      `Accept the invite (sign in with ${invite.email}; it expires ${invite.expiresAt}):`,
      invite.acceptUrl,
      '',
      `Or with the CLI: hop invites accept ${invite.token}`,
    ].join('\n');
    await send({ to: invite.email, subject: `${who} invited you to ${workspaceName} on Hop`, text });
  };
}

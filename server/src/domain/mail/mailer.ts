/** One plain-text e-mail. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export type SendMail = (mail: Mail) => Promise<void>;

/**
 * E-mail over `SMTP_URL` (invites, password resets), through nodemailer. The sender address is the
 * URL's `from` query parameter, else `Hop <no-reply@{host of the base URL}>`; the other query
 * parameters are nodemailer's own (`?pool=true`, ...). nodemailer is loaded on first use.
 */
export function createMailer(opts: { smtpUrl: string; baseUrl: string }): SendMail {
  const url = new URL(opts.smtpUrl);
  const from = url.searchParams.get('from') ?? `Hop <no-reply@${new URL(opts.baseUrl).hostname}>`;
  url.searchParams.delete('from');
  let transport: Promise<import('nodemailer').Transporter> | undefined;
  const connect = async () => (await import('nodemailer')).createTransport(url.toString());
  return async (mail) => {
    transport ??= connect();
    await (await transport).sendMail({ from, ...mail });
  };
}

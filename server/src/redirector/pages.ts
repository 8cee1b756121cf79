import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_STATUS, type ErrorCode } from '@hop/shared';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const PLAIN_STYLE = `<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 32rem; margin: 15vh auto; padding: 0 1rem; color: #1b1b1b; }
  h1 { font-size: 1.4rem; }
  input, button { font: inherit; padding: 0.3rem 0.6rem; margin-top: 0.25rem; }
  @media (prefers-color-scheme: dark) { body { background: #111; color: #eee; } }
</style>`;

/**
 * A small, accessible page that works without JavaScript. With `look` (the dashboard's stylesheet
 * and icon, see api/dashboard-look.ts) it wears the dashboard's header and narrow column.
 */
export function page(title: string, body: string, opts: { look?: string } = {}): string {
  const head = opts.look || PLAIN_STYLE;
  const top = opts.look ? '<header class="top"><span class="brand">Hop</span></header>\n<main class="narrow">' : '<main>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Hop</title>
${head}
</head>
<body>
${top}
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>`;
}

const wantsJson = (req: FastifyRequest) => {
  const accept = String(req.headers.accept ?? '');
  return accept.includes('application/json') && !accept.includes('text/html');
};

/** An error answer of the redirector: HTML for people, the contract's JSON when asked for. */
export function sendVisitError(
  req: FastifyRequest, reply: FastifyReply, code: ErrorCode, title: string, message: string, opts: { retryAfter?: number } = {},
) {
  reply.code(ERROR_STATUS[code]).header('cache-control', 'private, no-store');
  if (opts.retryAfter !== undefined) reply.header('retry-after', String(opts.retryAfter));
  if (wantsJson(req)) {
    const details = opts.retryAfter !== undefined ? { retryAfter: opts.retryAfter } : {};
    return reply.send({ success: false, error: { code, message, statusCode: ERROR_STATUS[code], details } });
  }
  return reply.type('text/html; charset=utf-8').send(page(title, `<p>${escapeHtml(message)}</p>`));
}

/** The password form. It never holds the destination; it posts back to the same address. */
export function passwordFormPage(opts: { error?: string }): string {
  const error = opts.error ? `<p role="alert" style="color:#b00020">${escapeHtml(opts.error)}</p>\n` : '';
  return page(
    'This link is protected',
    `<p>Enter the password to continue.</p>
${error}<form method="post" action="">
  <label for="password">Password</label><br>
  <input id="password" name="password" type="password" required autocomplete="current-password" autofocus
    aria-invalid="${opts.error ? 'true' : 'false'}">
  <button type="submit">Continue</button>
</form>`,
  );
}

export function sendPasswordForm(req: FastifyRequest, reply: FastifyReply, opts: { status: 200 | 401; error?: string }) {
  reply.header('cache-control', 'private, no-store');
  if (wantsJson(req)) {
    return reply.code(401).send({
      success: false,
      error: {
        code: 'UNAUTHORIZED',
        message: opts.error ?? 'this link is protected by a password: POST it as the form field "password"',
        statusCode: 401,
        details: { passwordRequired: true },
      },
    });
  }
  return reply.code(opts.status).type('text/html; charset=utf-8').send(passwordFormPage(opts));
}

export function sendLockedOut(req: FastifyRequest, reply: FastifyReply, retryAfterSeconds: number) {
  reply.header('retry-after', String(retryAfterSeconds));
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return sendVisitError(req, reply, 'RATE_LIMIT_EXCEEDED', 'Too many attempts',
    `Too many wrong passwords. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
}

/**
 * What a bot (or a HEAD request) gets of a link with a click limit: a page without the
 * destination. Only a counted visit may learn where a limited link leads, or a crawler would read
 * it without using a click.
 */
export function sendLimitedLinkNotice(reply: FastifyReply) {
  return reply.code(200).header('cache-control', 'private, no-store').type('text/html; charset=utf-8')
    .send(page('Open this link in a browser', '<p>This short link can be opened a limited number of times. Open it in a browser to continue.</p>'));
}

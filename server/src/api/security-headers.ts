import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Our own small pages (password form, 404/410/429, OAuth sign-in and consent) run no script and
 * load nothing: inline styles, a form that posts back to the same origin, and nothing else.
 * No `form-action`: browsers apply it to the redirect that answers the post too, and these forms
 * are answered by a redirect to another origin (the link's destination, the client's
 * redirect_uri), which `form-action 'self'` blocks. With no script and every value escaped, there
 * is no injected form for it to stop.
 */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'";

/**
 * Pages that are applications (`/docs`, the dashboard): scripts, styles, images and API calls from
 * this origin only; never framed, no plugins, no <base> tricks.
 */
export const APP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/**
 * The dashboard's CSP: its own scripts and styles only (no inline script, no eval), API calls to
 * this origin only, and no framing. With it, a script of another origin cannot run in the
 * dashboard's pages, so the session token the app keeps in this origin's storage stays its own.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:", "connect-src 'self'",
  "font-src 'self'", "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'", "manifest-src 'self'",
].join('; ');

/** The headers every HTML page carries; `csp` picks the policy (PAGE_CSP unless the page is an app). */
export function htmlSecurityHeaders(csp: string = PAGE_CSP): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}

/** Sets the page headers on a reply, keeping any a route chose itself (e.g. a stricter Referrer-Policy). */
export function secureHtmlReply(reply: FastifyReply, csp: string = PAGE_CSP): void {
  for (const [name, value] of Object.entries(htmlSecurityHeaders(csp))) {
    if (!reply.hasHeader(name)) reply.header(name, value);
  }
}

/**
 * The one place that secures HTML: an onSend hook on the root instance, so every HTML answer
 * (redirector pages, OAuth pages, /docs, the dashboard, error pages) gets the headers whoever
 * rendered it. A scope serving an application sets `APP_CSP` first (see `useAppCsp`). Every other
 * answer gets `nosniff` alone; the redirector's fast path answers redirects without Fastify and
 * without a body, so it needs none.
 */
export async function securityHeadersHook(_req: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (/^text\/html/i.test(String(reply.getHeader('content-type') ?? ''))) secureHtmlReply(reply);
  // Every other answer with a body (JSON above all) is read as the type it declares, never sniffed
  // into something a browser would run.
  // (Redirects are left as the fast path sends them: no body to sniff.)
  else if (!isRedirect(reply.statusCode) && !reply.hasHeader('x-content-type-options')) reply.header('x-content-type-options', 'nosniff');
  return payload;
}

const isRedirect = (status: number) => status >= 300 && status < 400;

/** An onRequest hook for a scope that serves an application: its pages get APP_CSP instead of PAGE_CSP. */
export async function useAppCsp(_req: FastifyRequest, reply: FastifyReply) {
  reply.header('content-security-policy', APP_CSP);
}

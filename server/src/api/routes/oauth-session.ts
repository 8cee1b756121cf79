import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { dashboardPath, ERROR_STATUS, inviteTokenFrom, LoginBodySchema, SignupBodySchema, type SignupBody } from '@hop/shared';
import { nulProblem } from '../../domain/nul-bytes.js';
import { HopError } from '../../domain/errors.js';
import { SESSION_TTL_SECONDS } from '../../domain/auth/session-tokens.js';
import { retryAfterSeconds } from '../../domain/rate-limits/rate-limiter.js';
import type { Services } from '../../services.js';
import { loginPage, signupPage } from './oauth-pages.js';

const SESSION_COOKIE = 'hop_oauth_session';
const CSRF_COOKIE = 'hop_oauth_csrf';
const COOKIE_PATH = '/v1/oauth';

export type Form = Record<string, string | undefined>;

/**
 * Pages that hand out grants are never cached; like every HTML page they are never framed
 * (clickjacking) or leaked through Referer (api/security-headers.ts sets that for all of them).
 */
export function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

const minutesText = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

export const sameSecret = (a: string | undefined, b: string | undefined) =>
  Boolean(a && b && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b)));

/** The body's fields as strings (form-encoded or JSON); anything else is ignored. */
export function fields(body: unknown): Form {
  const out: Form = {};
  if (body && typeof body === 'object') for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** Refusals a person can act on, shown on the form again: sign-up closed, an invite gone, wrong or for someone else. */
const SHOWN_ON_FORM: string[] = ['UNAUTHORIZED', 'VALIDATION_ERROR', 'CONFLICT', 'SIGNUP_CLOSED', 'NOT_FOUND', 'GONE', 'FORBIDDEN'];

/** `url` (a path with its query) with `prompt=create` added or removed: the sign-up and sign-in views of one page. */
function withPrompt(url: string, create: boolean): string {
  const u = new URL(url, 'http://x');
  if (create) u.searchParams.set('prompt', 'create');
  else u.searchParams.delete('prompt');
  return u.pathname + u.search;
}

/**
 * The browser side shared by the authorize page and the device page: the sign-in cookie (a
 * dashboard-session JWT), the CSRF double-submit cookie, and the sign-in and sign-up forms, which
 * come back to the same page (`prompt=create`, as OpenID Connect names it, shows sign-up).
 */
export function oauthBrowserSession(services: Services, secureCookies: boolean, dashboardUrl: string) {
  const forgotHref = `${dashboardUrl}${dashboardPath('forgotPassword')}`;
  const { sessions, users } = services;
  const cookieOptions = { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: secureCookies } as const;

  /** The sign-in page, or the sign-up page when the URL asks for it (`prompt=create`), as HOP_SIGNUP allows. */
  async function accountPage(
    req: FastifyRequest, reply: FastifyReply, clientName: string, csrf: string,
    opts: { status?: number; email?: string; name?: string; invite?: string; error?: string } = {},
  ) {
    const self = req.url;
    const create = new URL(self, 'http://x').searchParams.get('prompt') === 'create';
    const signup = await services.signupPolicy.current();
    const html = create
      ? signupPage({ clientName, csrf, ...opts, signup, loginHref: withPrompt(self, false) })
      : loginPage({ clientName, csrf, email: opts.email, error: opts.error, signup, signupHref: withPrompt(self, true), forgotHref });
    return sendPage(reply, opts.status ?? 200, html);
  }

  return {
    /** The user signed in to this flow, from the session cookie (while its session stands). */
    async user(req: FastifyRequest): Promise<string | null> {
      const token = req.cookies[SESSION_COOKIE];
      return token ? ((await sessions.verify(token))?.userId ?? null) : null;
    },

    /** The CSRF token of this browser: a random cookie that each form must echo. */
    csrfToken(req: FastifyRequest, reply: FastifyReply): string {
      const existing = req.cookies[CSRF_COOKIE];
      if (existing && /^[A-Za-z0-9_-]{32,64}$/.test(existing)) return existing;
      const token = randomBytes(24).toString('base64url');
      reply.setCookie(CSRF_COOKIE, token, cookieOptions);
      return token;
    },

    /** The posted form echoes this browser's CSRF cookie. */
    csrfMatches: (req: FastifyRequest, form: Form) => sameSecret(form.csrf, req.cookies[CSRF_COOKIE]),

    accountPage,

    /**
     * Handles a posted sign-in or sign-up form (`action=login|signup`): on success the session
     * cookie is set and the browser goes back to the page (without `prompt=create`); on failure
     * the form is shown again with the reason. True when it answered (whatever the outcome: the
     * caller must stop there, since the post may also carry a decision that is not yet signed
     * in); false when the form is neither.
     */
    async handleAccountForm(req: FastifyRequest, reply: FastifyReply, form: Form, clientName: string): Promise<boolean> {
      if (form.action === 'logout') {
        // Signing out ends the cookie's session on the server, not only in this browser.
        const token = req.cookies[SESSION_COOKIE];
        const session = token ? await sessions.verify(token) : null;
        if (session) await sessions.endCurrent(session.userId, { sessionId: session.sessionId });
        reply.clearCookie(SESSION_COOKIE, cookieOptions);
        reply.redirect(withPrompt(req.url, false), 303);
        return true;
      }
      if (form.action !== 'login' && form.action !== 'signup') return false;
      const csrf = req.cookies[CSRF_COOKIE]!;
      const again = async (status: number, error: string) => {
        await accountPage(req, reply, clientName, csrf, { status, email: form.email, name: form.name, invite: form.invite, error });
        return true;
      };
      const tooMany = (seconds: number) => {
        reply.header('retry-after', String(seconds));
        return again(429, `Too many sign-in attempts. Try again in ${minutesText(seconds)}.`);
      };
      // The same per-address allowance as POST /v1/auth/login and /v1/auth/signup (30 a minute):
      // the form is one more way in, not a way around it.
      const address = await services.rateLimits.consumeAnonymous(req.ip);
      if (!address.allowed && address.status) return tooMany(retryAfterSeconds(address.status.resetAt));
      // The fields pass the same schemas as the API's bodies, so an address the API would refuse
      // (a NUL, a dotted capital I) never reaches the account lookup or the lockout.
      const body = form.action === 'login'
        ? LoginBodySchema.safeParse({ email: form.email ?? '', password: form.password ?? '' })
        : SignupBodySchema.safeParse({ email: form.email, password: form.password, name: form.name, inviteToken: inviteTokenFrom(form.invite) });
      if (!body.success) {
        const issue = body.error.issues[0];
        return again(400, `${issue.path.join('.')}: ${issue.message}`);
      }
      const nul = nulProblem(body.data, []);
      if (nul) return again(400, `${nul.path}: ${nul.message}`);
      try {
        const ctx = { userAgent: req.headers['user-agent'] };
        const { token } = form.action === 'login' ? await users.login(body.data, ctx) : await users.signup(body.data as SignupBody, ctx);
        reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, maxAge: SESSION_TTL_SECONDS });
        reply.redirect(withPrompt(req.url, false), 303);
        return true;
      } catch (err) {
        if (err instanceof HopError && err.code === 'RATE_LIMIT_EXCEEDED') return tooMany(Number(err.details.retryAfter));
        if (!(err instanceof HopError) || !SHOWN_ON_FORM.includes(err.code)) throw err;
        if (form.action === 'login') return again(401, 'Wrong e-mail or password.');
        return again(err.code === 'VALIDATION_ERROR' || err.code === 'CONFLICT' ? 400 : ERROR_STATUS[err.code], err.message);
      }
    },
  };
}

export type OAuthBrowserSession = ReturnType<typeof oauthBrowserSession>;

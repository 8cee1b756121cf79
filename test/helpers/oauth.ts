// Plays an OAuth client and a browser without a browser: the authorize page's forms are posted
// with fetch, cookies carried by hand. The browser tests drive the same pages in Chromium.
import { createHash, randomBytes } from 'node:crypto';
import type { OAuthTokenResponse, Scope } from '@hop/shared';
import { API_URL, type Account } from './api.js';

export const CLI_CLIENT = 'hop-cli';

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizeParams {
  clientId: string;
  redirectUri: string;
  scope?: string;
  state?: string;
  challenge?: string;
  method?: string;
  responseType?: string;
}

export function authorizeUrl(p: AuthorizeParams, baseUrl = API_URL): string {
  const q = new URLSearchParams();
  q.set('response_type', p.responseType ?? 'code');
  q.set('client_id', p.clientId);
  q.set('redirect_uri', p.redirectUri);
  if (p.scope !== undefined) q.set('scope', p.scope);
  if (p.state !== undefined) q.set('state', p.state);
  if (p.challenge !== undefined) q.set('code_challenge', p.challenge);
  q.set('code_challenge_method', p.method ?? 'S256');
  return `${baseUrl}/v1/oauth/authorize?${q}`;
}

/** A cookie jar of one: name=value pairs from Set-Cookie, sent back on the next request. */
class Jar {
  readonly cookies = new Map<string, string>();
  take(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

/** A browser session on the authorize page: GET it, sign in, decide (`headers` go on every request). */
export function authorizeSession(url: string, headers: Record<string, string> = {}) {
  const jar = new Jar();
  let csrf = '';
  const send = async (method: 'GET' | 'POST', form?: Record<string, string>) => {
    const res = await fetch(url, {
      method, redirect: 'manual',
      headers: { ...headers, cookie: jar.header(), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    jar.take(res);
    const text = await res.text();
    csrf = csrfOf(text) || csrf;
    return { status: res.status, location: res.headers.get('location'), text, headers: res.headers };
  };
  return {
    jar,
    get: () => send('GET'),
    login: (account: Pick<Account, 'email' | 'password'>) => send('POST', { csrf, action: 'login', email: account.email, password: account.password }),
    decide: (decision: 'approve' | 'deny', workspaceId?: string) => send('POST', { csrf, decision, ...(workspaceId ? { workspace: workspaceId } : {}) }),
    post: (form: Record<string, string>) => send('POST', form),
    get csrf() {
      return csrf;
    },
  };
}

/** The whole consent dance for `account`; answers the Location the browser was sent to. */
export async function approve(account: Pick<Account, 'email' | 'password'>, workspaceId: string, p: AuthorizeParams, baseUrl = API_URL): Promise<URL> {
  const s = authorizeSession(authorizeUrl(p, baseUrl));
  const first = await s.get();
  if (first.status !== 200) throw new Error(`authorize answered ${first.status}: ${first.location ?? first.text.slice(0, 300)}`);
  const login = await s.login(account);
  if (login.status !== 303) throw new Error(`login answered ${login.status}: ${login.text.slice(0, 300)}`);
  const consent = await s.get();
  if (!consent.text.includes('Approve')) throw new Error(`no consent page: ${consent.text.slice(0, 300)}`);
  const done = await s.decide('approve', workspaceId);
  if (done.status !== 303 || !done.location) throw new Error(`approve answered ${done.status}: ${done.text.slice(0, 300)}`);
  return new URL(done.location);
}

export interface TokenCall {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

/** POST /v1/oauth/token (or /revoke) as a form; `basic` = [id, secret] for client_secret_basic. */
export async function oauthPost(path: 'token' | 'revoke', form: Record<string, string | undefined>, basic?: [string, string], baseUrl = API_URL): Promise<TokenCall> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) if (v !== undefined) body.set(k, v);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basic) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(basic[0])}:${encodeURIComponent(basic[1])}`).toString('base64')}`;
  const res = await fetch(`${baseUrl}/v1/oauth/${path}`, { method: 'POST', headers, body: body.toString() });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {}, headers: res.headers };
}

/** Approve and exchange in one go: tokens for `account` in `workspaceId` through `clientId`. */
export async function oauthTokens(
  account: Pick<Account, 'email' | 'password'>,
  workspaceId: string,
  opts: { clientId?: string; clientSecret?: string; redirectUri?: string; scopes?: Scope[]; baseUrl?: string } = {},
): Promise<OAuthTokenResponse> {
  const clientId = opts.clientId ?? CLI_CLIENT;
  const redirectUri = opts.redirectUri ?? 'http://127.0.0.1:45678/callback';
  const { verifier, challenge } = pkce();
  const at = await approve(account, workspaceId, { clientId, redirectUri, scope: opts.scopes?.join(' '), state: 's', challenge }, opts.baseUrl);
  const code = at.searchParams.get('code');
  if (!code) throw new Error(`no code in ${at}`);
  const res = await oauthPost('token', {
    grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier,
    client_id: opts.clientSecret ? undefined : clientId,
  }, opts.clientSecret ? [clientId, opts.clientSecret] : undefined, opts.baseUrl);
  if (res.status !== 200) throw new Error(`token exchange answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as unknown as OAuthTokenResponse;
}

/** POST /v1/oauth/device/code as a public client (RFC 8628 3.1). */
export async function deviceCode(clientId = CLI_CLIENT, scope?: string, baseUrl = API_URL): Promise<TokenCall> {
  const body = new URLSearchParams({ client_id: clientId, ...(scope ? { scope } : {}) });
  const res = await fetch(`${baseUrl}/v1/oauth/device/code`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() });
  return { status: res.status, body: JSON.parse(await res.text()), headers: res.headers };
}

/** The user's side of the device flow: open verification_uri_complete, sign in, decide. */
export async function approveDevice(account: Pick<Account, 'email' | 'password'>, verificationUriComplete: string, decision: 'approve' | 'deny', workspaceId?: string) {
  const s = authorizeSession(verificationUriComplete);
  const first = await s.get();
  if (first.status !== 200) throw new Error(`device page answered ${first.status}: ${first.text.slice(0, 300)}`);
  const login = await s.login(account);
  if (login.status !== 303) throw new Error(`login answered ${login.status}: ${login.text.slice(0, 300)}`);
  const consent = await s.get();
  if (!consent.text.includes('Approve')) throw new Error(`no consent page: ${consent.text.slice(0, 300)}`);
  const userCode = /name="user_code" value="([^"]+)"/.exec(consent.text)?.[1] ?? '';
  return s.post({ csrf: s.csrf, user_code: userCode, decision, ...(workspaceId ? { workspace: workspaceId } : {}) });
}

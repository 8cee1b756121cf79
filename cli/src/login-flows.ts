import type { DeviceAuthorizationResponse, OAuthTokenResponse } from '@hop/shared';
import { exchangeCode, OAuthRequestError, postOAuth, startLogin } from './oauth-login.js';
import { UsageError } from './errors.js';

/** RFC 8628 3.4's grant type (kept here so the CLI does not load the contracts for it). */
const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** Why no browser can be used for the login, or undefined when one can (gh and the Stripe CLI look at the same). */
export function browserUnavailable(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string | undefined {
  if (env.SSH_CONNECTION || env.SSH_CLIENT || env.SSH_TTY) return 'over SSH';
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd') {
    if (!env.DISPLAY && !env.WAYLAND_DISPLAY && !env.BROWSER) return 'no display';
  }
  return undefined;
}

/** Authorization code + PKCE through the browser, back to a loopback address (RFC 8252). */
export async function logInWithBrowser(apiUrl: string, scopes: string[] | undefined, openBrowser: boolean): Promise<OAuthTokenResponse> {
  const login = await startLogin(apiUrl, scopes);
  try {
    if (!openBrowser) {
      process.stderr.write(`Open this address in a browser on this machine to log in:\n${login.url}\n`);
    } else {
      process.stderr.write(`Opening the browser to log in; if it does not open, visit:\n${login.url}\n`);
      const { default: open } = await import('open');
      await open(login.url).catch(() => undefined);
    }
    process.stderr.write('Waiting for the browser...\n');
    return await exchangeCode(apiUrl, login, await login.code);
  } finally {
    login.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * RFC 8628: ask for a device code, show the user code and the address to approve it at (on any
 * device), then poll the token endpoint at the interval the server gave, slowing down when told.
 */
export async function logInWithDevice(apiUrl: string, scopes: string[] | undefined): Promise<OAuthTokenResponse> {
  const form: Record<string, string> = scopes?.length ? { scope: scopes.join(' ') } : {};
  const grant = (await postOAuth(apiUrl, 'device/code', form)) as unknown as DeviceAuthorizationResponse;
  process.stderr.write(`To log in, open ${grant.verification_uri} on any device and enter the code\n\n    ${grant.user_code}\n\n`
    + `(or open ${grant.verification_uri_complete})\nWaiting for approval...\n`);
  let interval = grant.interval * 1000;
  const deadline = Date.now() + grant.expires_in * 1000;
  while (Date.now() < deadline) {
    await sleep(interval);
    try {
      return (await postOAuth(apiUrl, 'token', { grant_type: DEVICE_CODE_GRANT_TYPE, device_code: grant.device_code })) as unknown as OAuthTokenResponse;
    } catch (err) {
      if (!(err instanceof OAuthRequestError)) throw err;
      if (err.error === 'authorization_pending') continue;
      if (err.error === 'slow_down') interval += 5000; // RFC 8628 3.5
      else if (err.error === 'access_denied') throw new UsageError('login denied on the approval page');
      else if (err.error === 'expired_token') break;
      else throw err;
    }
  }
  throw new UsageError('the code expired before it was approved: run `hop login --device` again');
}

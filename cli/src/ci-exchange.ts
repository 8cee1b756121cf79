import { ID_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT_TYPE } from '@hop/shared/constants';
import { OAuthRequestError, postOAuth } from './oauth-login.js';
import { AuthRequiredError } from './errors.js';

/** Where a CI job's ID token comes from: HOP_OIDC_TOKEN, or GitHub Actions' token request endpoint. */
export type CiTokenSource = 'HOP_OIDC_TOKEN' | 'github-actions';

/**
 * docs/ci.md: with no HOP_API_KEY, a job that can prove who it is (HOP_OIDC_TOKEN, or GitHub
 * Actions with `permissions: id-token: write`) exchanges its ID token rather than storing a secret.
 */
export function ciTokenSource(env: NodeJS.ProcessEnv): CiTokenSource | undefined {
  if (env.HOP_API_KEY !== undefined) return undefined;
  if (env.HOP_OIDC_TOKEN) return 'HOP_OIDC_TOKEN';
  if (env.ACTIONS_ID_TOKEN_REQUEST_URL && env.ACTIONS_ID_TOKEN_REQUEST_TOKEN) return 'github-actions';
  return undefined;
}

async function json(res: Response, what: string): Promise<Record<string, unknown>> {
  const text = await res.text();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`${what} answered ${res.status} with no JSON`);
  }
}

/** The audience ID tokens must name: the server's public URL, as its OAuth metadata gives it (RFC 8414). */
async function serverIssuer(apiUrl: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(`${apiUrl}/.well-known/oauth-authorization-server`, { headers: { accept: 'application/json' } });
  } catch (err) {
    throw new Error(`cannot reach ${apiUrl}: ${(err as Error).message}`);
  }
  const meta = await json(res, apiUrl);
  if (!res.ok || typeof meta.issuer !== 'string') throw new Error(`${apiUrl} publishes no OAuth metadata (is it a Hop server?)`);
  return meta.issuer;
}

/** GitHub Actions' ID token for `audience` (its documented request: the URL plus `&audience=`, the request token as bearer). */
async function actionsIdToken(env: NodeJS.ProcessEnv, audience: string): Promise<string> {
  const url = new URL(env.ACTIONS_ID_TOKEN_REQUEST_URL!);
  url.searchParams.set('audience', audience);
  let res: Response;
  try {
    res = await fetch(url, { headers: { authorization: `Bearer ${env.ACTIONS_ID_TOKEN_REQUEST_TOKEN}`, accept: 'application/json' } });
  } catch (err) {
    throw new AuthRequiredError(`cannot get the GitHub Actions ID token: ${(err as Error).message}`);
  }
  const body = await json(res, 'the GitHub Actions token endpoint');
  if (!res.ok || typeof body.value !== 'string') {
    throw new AuthRequiredError(`the GitHub Actions token endpoint answered ${res.status}: does the job have \`permissions: id-token: write\`?`);
  }
  return body.value;
}

/** An access token of the trust that names this job, and the workspace it acts in. */
export async function exchangeCiToken(apiUrl: string, env: NodeJS.ProcessEnv, source: CiTokenSource): Promise<{ token: string; workspaceId: string }> {
  const subject = source === 'HOP_OIDC_TOKEN' ? env.HOP_OIDC_TOKEN!.trim() : await actionsIdToken(env, await serverIssuer(apiUrl));
  try {
    const answer = await postOAuth(apiUrl, 'token', {
      grant_type: TOKEN_EXCHANGE_GRANT_TYPE, subject_token: subject, subject_token_type: ID_TOKEN_TYPE,
      ...(env.HOP_WORKSPACE ? { workspace: env.HOP_WORKSPACE } : {}),
    });
    return { token: String(answer.access_token), workspaceId: String(answer.workspace_id) };
  } catch (err) {
    if (err instanceof OAuthRequestError) throw new AuthRequiredError(`the server refused this job's ID token (${source}): ${err.message}`);
    throw err;
  }
}

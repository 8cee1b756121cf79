// A local OIDC issuer on 127.0.0.1 with its own keys: the discovery document, the JWKS, ID tokens
// signed as GitHub Actions or GitLab sign theirs, and GitHub's token request endpoint
// (ACTIONS_ID_TOKEN_REQUEST_URL) that hands a job its ID token for an audience.
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

export interface IssuerKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

export async function newKey(kid = randomBytes(6).toString('hex')): Promise<IssuerKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

export interface LocalIssuer {
  url: string;
  /** Keys published in the JWKS; push or replace to rotate. */
  published: IssuerKey[];
  /** Requests the issuer served, by path. */
  hits: string[];
  /** The request token the Actions endpoint takes (ACTIONS_ID_TOKEN_REQUEST_TOKEN). */
  requestToken: string;
  /** ACTIONS_ID_TOKEN_REQUEST_URL: answers `{value}`, an ID token for `?audience=`, with `actionsClaims`. */
  actionsUrl: string;
  actionsClaims: JWTPayload;
  sign(claims: JWTPayload, o?: { key?: IssuerKey; expiresIn?: number; issuer?: string; notBefore?: number }): Promise<string>;
  close(): Promise<void>;
}

/** GitHub Actions' claims of a job of `repository` on main. */
export const githubClaims = (repository: string, extra: JWTPayload = {}): JWTPayload => ({
  sub: `repo:${repository}:ref:refs/heads/main`, repository, repository_owner: repository.split('/')[0], ref: 'refs/heads/main',
  ref_type: 'branch', workflow: 'Links', workflow_ref: `${repository}/.github/workflows/links.yml@refs/heads/main`,
  event_name: 'push', run_id: '4242', ...extra,
});

export async function startIssuer(): Promise<LocalIssuer> {
  const key = await newKey();
  const requestToken = randomBytes(16).toString('hex');
  let url = '';
  const issuer: LocalIssuer = {
    url: '', published: [key], hits: [], requestToken, actionsUrl: '', actionsClaims: {},
    async sign(claims, o = {}) {
      const k = o.key ?? issuer.published[0];
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: k.kid, typ: 'JWT' })
        .setIssuer(o.issuer ?? url).setIssuedAt(now).setExpirationTime(now + (o.expiresIn ?? 300))
        .setJti(randomBytes(8).toString('hex'));
      if (o.notBefore !== undefined) jwt.setNotBefore(o.notBefore);
      return jwt.sign(k.privateKey);
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', url);
    issuer.hits.push(u.pathname);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (u.pathname === '/.well-known/openid-configuration') return json(200, { issuer: url, jwks_uri: `${url}/keys`, id_token_signing_alg_values_supported: ['RS256'] });
    if (u.pathname === '/keys') return json(200, { keys: issuer.published.map((k) => k.jwk) });
    if (u.pathname === '/actions-token') {
      if (req.headers.authorization !== `Bearer ${requestToken}`) return json(401, { message: 'bad request token' });
      const audience = u.searchParams.get('audience');
      void issuer.sign({ ...issuer.actionsClaims, ...(audience ? { aud: audience } : {}) }).then((value) => json(200, { count: 1, value }));
      return;
    }
    json(404, { message: 'not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  url = `http://127.0.0.1:${port}`;
  issuer.url = url;
  issuer.actionsUrl = `${url}/actions-token?api-version=2.0`;
  return issuer;
}

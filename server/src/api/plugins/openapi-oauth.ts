import { z } from 'zod';
import { DEVICE_CODE_GRANT_TYPE, DeviceAuthorizationResponseSchema, OAuthErrorSchema, OAuthTokenResponseSchema, SCOPES } from '@hop/shared';

const json = (schema: z.ZodType) => ({ 'application/json': { schema: z.toJSONSchema(schema, { io: 'output' }) } });
const form = (properties: Record<string, object>, required: string[]) => ({
  'application/x-www-form-urlencoded': { schema: { type: 'object', properties, required } },
});
const text = (description: string, schema: object = {}) => ({ type: 'string', description, ...schema });
const query = (name: string, description: string, required = true, schema: object = {}) => ({
  name, in: 'query', required, description, schema: { type: 'string', ...schema },
});
const page = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const oauthError = (description: string) => ({ description: `RFC 6749 5.2 error: ${description}`, content: json(OAuthErrorSchema) });
/** What every protocol endpoint (token, revocation, device authorization) may answer besides success. */
const protocolErrors = {
  400: oauthError('a missing, unknown or invalid parameter, grant or scope, or a malformed body'),
  401: oauthError('the client failed to authenticate'),
  413: oauthError('a body over 16 KiB'),
  415: oauthError('a body neither form-encoded nor JSON'),
  500: oauthError('server_error'),
};
/** What every HTML page of the flow may answer besides its own pages. */
const pageErrors = {
  413: page('A body over 16 KiB'),
  415: page('A body neither form-encoded nor JSON'),
  500: page('Something went wrong on our side'),
};
const tags = ['oauth'];
/** The browser pages and the metadata take no credential; the protocol endpoints take the client's. */
const noCredential: object[] = [];
const clientCredential = [{}, { oauthClientBasic: [] }];
const SCOPE_LIST = { pattern: `^(${SCOPES.join('|')})( (${SCOPES.join('|')}))*$` };

/**
 * The authorization server (RFC 6749 with PKCE, RFC 8414 metadata, RFC 7009 revocation) speaks
 * OAuth rather than the envelope, so it is registered outside the route table; its operations
 * are described here for the OpenAPI document.
 */
export function oauthPaths(): Record<string, object> {
  return {
    '/.well-known/oauth-authorization-server': {
      get: {
        operationId: 'oauthMetadata', summary: 'Authorization server metadata (RFC 8414)', tags, security: noCredential,
        description: 'The issuer, its endpoints, grant types, PKCE methods, client authentication methods and scopes. Cacheable for an hour.',
        responses: { 200: { description: 'Endpoints, grant types, PKCE methods and scopes', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
    '/v1/oauth/authorize': {
      get: {
        operationId: 'oauthAuthorize', summary: 'Start an authorization: the sign-in page, then the consent page', tags, security: noCredential,
        description: 'An HTML page for the user\'s browser. Errors found once the client and its redirect URI are known go back to the redirect URI with `error`, `error_description`, `state` and `iss` (RFC 9207); before that, an error page.',
        parameters: [
          query('response_type', 'Only the authorization code flow', true, { enum: ['code'] }),
          query('client_id', 'The client id: `oac_...`, or `hop-cli` for the CLI', true, { maxLength: 200 }),
          query('redirect_uri', 'One of the client\'s redirect URIs (any port on a loopback one)', true, { format: 'uri', maxLength: 2000 }),
          query('code_challenge', 'PKCE: base64url SHA-256 of the code verifier', true, { pattern: '^[A-Za-z0-9_-]{43}$' }),
          query('code_challenge_method', 'PKCE method: only S256', true, { enum: ['S256'] }),
          query('scope', 'Space-separated scopes (default: all the user may grant)', false, SCOPE_LIST),
          query('state', 'Echoed back to the redirect URI', false, { maxLength: 1000 }),
        ],
        responses: {
          200: page('The sign-in or consent page'),
          302: { description: 'Back to the redirect URI with `code` (or `error`), `state` and `iss`' },
          400: page('A bad client id or redirect URI: an error page, never a redirect'),
          500: page('Something went wrong on our side'),
        },
      },
      post: {
        operationId: 'oauthAuthorizeForm', summary: 'The sign-in, sign-up and consent forms (double-submit CSRF token)', tags, security: noCredential,
        description: 'Posted by the pages of `GET /v1/oauth/authorize`, with the same query. `action` signs in or up; `decision` approves (for a workspace) or denies.',
        parameters: [
          query('response_type', 'As for GET', true, { enum: ['code'] }), query('client_id', 'As for GET'), query('redirect_uri', 'As for GET', true, { format: 'uri' }),
          query('code_challenge', 'As for GET'), query('code_challenge_method', 'As for GET', true, { enum: ['S256'] }),
          query('scope', 'As for GET', false, SCOPE_LIST), query('state', 'As for GET', false),
        ],
        requestBody: {
          content: form({
            csrf: text('The form\'s CSRF token'), action: text('Sign in or sign up', { enum: ['login', 'signup'] }),
            email: text('For `action`', { format: 'email' }), password: text('For `action`'), name: text('For `action=signup`'),
            decision: text('Approve or deny the client', { enum: ['approve', 'deny'] }), workspace: text('For `decision=approve`: the workspace to grant (ws_...)'),
          }, ['csrf']),
        },
        responses: {
          200: page('The next page of the flow'),
          303: { description: 'Signed in: back to the page; or decided: back to the redirect URI with `code` (or `error=access_denied`), `state` and `iss`' },
          400: page('A bad request (as for GET), a sign-up refused, or no decision or workspace chosen'),
          401: page('Wrong e-mail or password'),
          403: page('The form expired or came from elsewhere'),
          429: page('Too many password attempts'),
          ...pageErrors,
        },
      },
    },
    '/v1/oauth/token': {
      post: {
        operationId: 'oauthToken', summary: 'Exchange a code (with its PKCE verifier) or a refresh token for tokens', tags, security: clientCredential,
        description: 'RFC 6749 5: a public client names itself with `client_id`; a confidential one authenticates with HTTP Basic or `client_secret` in the body, never both. Every failure answers `{error, error_description}`.',
        requestBody: {
          content: form({
            grant_type: text('The grant', { enum: ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT_TYPE] }), device_code: text('device_code grant'), code: text('authorization_code'), redirect_uri: text('authorization_code'),
            code_verifier: text('authorization_code (PKCE)'), refresh_token: text('refresh_token'), scope: text('refresh_token: narrow the scopes'),
            client_id: text('Unless sent with HTTP Basic'), client_secret: text('Confidential clients, unless sent with HTTP Basic'),
          }, ['grant_type']),
        },
        responses: { 200: { description: 'Tokens, bound to one workspace', content: json(OAuthTokenResponseSchema) }, ...protocolErrors },
      },
    },
    '/v1/oauth/device/code': {
      post: {
        operationId: 'oauthDeviceCode', summary: 'Start a device authorization (RFC 8628): a device code and a code for the user to type', tags, security: clientCredential,
        description: 'The device then polls the token endpoint with the device code grant, no faster than `interval` seconds, while the user approves on another screen.',
        requestBody: { content: form({ client_id: text('Unless sent with HTTP Basic'), scope: text('Space-separated scopes', SCOPE_LIST) }, []) },
        responses: { 200: { description: 'Codes, where to type the user code, and how often to poll the token endpoint', content: json(DeviceAuthorizationResponseSchema) }, ...protocolErrors },
      },
    },
    '/v1/oauth/device': {
      get: {
        operationId: 'oauthDevicePage', summary: 'Where the user signs in and types (or finds prefilled) the user code', tags, security: noCredential,
        description: 'An HTML page for the user\'s browser: the `verification_uri` of a device authorization.',
        parameters: [query('user_code', 'Prefilled from verification_uri_complete', false, { maxLength: 20 })],
        responses: { 200: page('The sign-in, code or consent page'), 400: page('An unknown, used or expired code'), 500: page('Something went wrong on our side') },
      },
      post: {
        operationId: 'oauthDeviceForm', summary: 'The sign-in, code and consent forms of the device flow', tags, security: noCredential,
        description: 'Posted by the pages of `GET /v1/oauth/device`.',
        requestBody: {
          content: form({
            csrf: text('The form\'s CSRF token'), action: text('Sign in, sign up, or look up the code', { enum: ['login', 'signup', 'code'] }),
            email: text('For `action`', { format: 'email' }), password: text('For `action`'), name: text('For `action=signup`'),
            user_code: text('The code shown on the device'), decision: text('Approve or deny the device', { enum: ['approve', 'deny'] }), workspace: text('The workspace to grant (ws_...)'),
          }, ['csrf']),
        },
        responses: {
          200: page('The next page, or done'), 303: { description: 'Signed in: back to the page' }, 400: page('An unknown, used or expired code, or a sign-up refused'),
          401: page('Wrong e-mail or password'), 403: page('The form expired or came from elsewhere'), 429: page('Too many password attempts'), ...pageErrors,
        },
      },
    },
    '/v1/oauth/revoke': {
      post: {
        operationId: 'oauthRevoke', summary: 'Revoke an access or refresh token (RFC 7009)', tags, security: clientCredential,
        description: 'Revoking a refresh token revokes its grant. A token that is unknown, already revoked or another client\'s answers 200 all the same, as RFC 7009 says.',
        requestBody: { content: form({ token: text('The token'), token_type_hint: text('What the token is', { enum: ['access_token', 'refresh_token'] }), client_id: text('Unless sent with HTTP Basic'), client_secret: text('Confidential clients') }, ['token']) },
        responses: { 200: { description: 'Revoked, or was not a valid token' }, ...protocolErrors },
      },
    },
  };
}

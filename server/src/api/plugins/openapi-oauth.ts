import { z } from 'zod';
import { DeviceAuthorizationResponseSchema, OAuthErrorSchema, OAuthTokenResponseSchema } from '@hop/shared';

const json = (schema: z.ZodType) => ({ 'application/json': { schema: z.toJSONSchema(schema, { io: 'output' }) } });
const form = (properties: Record<string, object>, required: string[]) => ({
  'application/x-www-form-urlencoded': { schema: { type: 'object', properties, required } },
});
const text = (description: string) => ({ type: 'string', description });
const query = (name: string, description: string, required = true) => ({
  name, in: 'query', required, description, schema: { type: 'string' },
});
const page = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const oauthError = { description: 'RFC 6749 5.2 error (401 when the client failed to authenticate)', content: json(OAuthErrorSchema) };
const tags = ['oauth'];

/**
 * The authorization server (RFC 6749 with PKCE, RFC 8414 metadata, RFC 7009 revocation) speaks
 * OAuth rather than the envelope, so it is registered outside the route table; its operations
 * are described here for the OpenAPI document.
 */
export function oauthPaths(): Record<string, object> {
  return {
    '/.well-known/oauth-authorization-server': {
      get: {
        operationId: 'oauthMetadata', summary: 'Authorization server metadata (RFC 8414)', tags,
        responses: { 200: { description: 'Endpoints, grant types, PKCE methods and scopes', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
    '/v1/oauth/authorize': {
      get: {
        operationId: 'oauthAuthorize', summary: 'Start an authorization: the sign-in page, then the consent page', tags,
        parameters: [
          query('response_type', '`code`'), query('client_id', 'The client id (oac_...)'), query('redirect_uri', 'One of the client\'s redirect URIs'),
          query('code_challenge', 'PKCE S256 challenge'), query('code_challenge_method', '`S256`'),
          query('scope', 'Space-separated scopes (default: all the user may grant)', false), query('state', 'Echoed back to the redirect URI', false),
        ],
        responses: {
          200: page('The sign-in or consent page'),
          302: { description: 'Back to the redirect URI with `code` (or `error`) and `state`' },
          400: page('A bad client id or redirect URI: an error page, never a redirect'),
        },
      },
      post: {
        operationId: 'oauthAuthorizeForm', summary: 'The sign-in and consent forms (double-submit CSRF token)', tags,
        requestBody: { content: form({ action: text('`login`, `approve` or `deny`'), csrf: text('The form\'s CSRF token'), email: text('For `login`'), password: text('For `login`'), workspace_id: text('For `approve`') }, ['action', 'csrf']) },
        responses: {
          302: { description: 'Back to the redirect URI with `code` or `error=access_denied`' },
          303: { description: 'Signed in: back to the consent page' },
          401: page('Wrong e-mail or password'),
          403: page('The form expired or came from elsewhere'),
          429: page('Too many password attempts'),
        },
      },
    },
    '/v1/oauth/token': {
      post: {
        operationId: 'oauthToken', summary: 'Exchange a code (with its PKCE verifier) or a refresh token for tokens', tags,
        requestBody: {
          content: form({
            grant_type: text('`authorization_code`, `refresh_token` or `urn:ietf:params:oauth:grant-type:device_code`'), device_code: text('device_code grant'), code: text('authorization_code'), redirect_uri: text('authorization_code'),
            code_verifier: text('authorization_code (PKCE)'), refresh_token: text('refresh_token'), scope: text('refresh_token: narrow the scopes'),
            client_id: text('Unless sent with HTTP Basic'), client_secret: text('Confidential clients, unless sent with HTTP Basic'),
          }, ['grant_type']),
        },
        responses: { 200: { description: 'Tokens, bound to one workspace', content: json(OAuthTokenResponseSchema) }, 400: oauthError, 401: oauthError },
      },
    },
    '/v1/oauth/device/code': {
      post: {
        operationId: 'oauthDeviceCode', summary: 'Start a device authorization (RFC 8628): a device code and a code for the user to type', tags,
        requestBody: { content: form({ client_id: text('Unless sent with HTTP Basic'), scope: text('Space-separated scopes') }, []) },
        responses: { 200: { description: 'Codes, where to type the user code, and how often to poll the token endpoint', content: json(DeviceAuthorizationResponseSchema) }, 400: oauthError, 401: oauthError },
      },
    },
    '/v1/oauth/device': {
      get: {
        operationId: 'oauthDevicePage', summary: 'Where the user signs in and types (or finds prefilled) the user code', tags,
        parameters: [query('user_code', 'Prefilled from verification_uri_complete', false)],
        responses: { 200: page('The sign-in, code or consent page'), 400: page('An unknown, used or expired code') },
      },
      post: {
        operationId: 'oauthDeviceForm', summary: 'The sign-in, code and consent forms of the device flow', tags,
        requestBody: { content: form({ csrf: text('The form\'s CSRF token'), user_code: text('The code shown on the device'), decision: text('`approve` or `deny`'), workspace: text('The workspace to grant') }, ['csrf']) },
        responses: { 200: page('The next page, or done'), 400: page('An unknown, used or expired code'), 403: page('The form expired or came from elsewhere') },
      },
    },
    '/v1/oauth/revoke': {
      post: {
        operationId: 'oauthRevoke', summary: 'Revoke an access or refresh token (RFC 7009)', tags,
        requestBody: { content: form({ token: text('The token'), client_id: text('Unless sent with HTTP Basic'), client_secret: text('Confidential clients') }, ['token']) },
        responses: { 200: { description: 'Revoked, or was not a valid token' }, 400: oauthError, 401: oauthError },
      },
    },
  };
}

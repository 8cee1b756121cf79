/**
 * An error of the authorization server in RFC 6749's vocabulary (`invalid_grant`, ...): the token
 * and revocation endpoints answer it as `{error, error_description}`, the authorize endpoint as a
 * redirect carrying `error=` (or, before the redirect URI is trusted, as an HTML page).
 */
export class OAuthError extends Error {
  constructor(
    readonly error:
      | 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type'
      | 'invalid_scope' | 'access_denied' | 'unsupported_response_type' | 'server_error' | 'unsupported_token_type'
      // RFC 8628 3.5: the device flow's answers while polling.
      | 'authorization_pending' | 'slow_down' | 'expired_token',
    readonly description: string,
    /** Set on a refusal by a rate limit: the seconds to wait, answered as 429 with Retry-After. */
    readonly retryAfter?: number,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  /** 401 for a failed client authentication, 429 for a rate limit, 400 for everything else (RFC 6749 5.2). */
  get status(): 400 | 401 | 429 {
    if (this.retryAfter !== undefined) return 429;
    return this.error === 'invalid_client' ? 401 : 400;
  }
}

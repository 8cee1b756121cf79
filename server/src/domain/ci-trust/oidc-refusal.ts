/**
 * A refused token exchange, with the check that failed (`iss`, `aud`, `exp`, `kid`, `repository`,
 * ...): the token endpoint answers it as 401 `invalid_grant` with `error_description`
 * `<check>: <why>`, so a CI log says what to fix.
 */
export class OidcRefusal extends Error {
  constructor(readonly check: string, readonly why: string) {
    super(`${check}: ${why}`);
    this.name = 'OidcRefusal';
  }
}

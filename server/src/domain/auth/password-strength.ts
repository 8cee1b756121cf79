import { createRequire } from 'node:module';
import { validationError } from '../errors.js';

/** Account passwords: at least this long (the contract's AccountPasswordSchema says the same). */
export const MIN_PASSWORD_LENGTH = 8;
/** How many of the most common passwords are refused. */
export const COMMON_PASSWORDS_COUNT = 10_000;

let common: Set<string> | undefined;

/**
 * The most common passwords, most common first, from zxcvbn-ts's list (compiled from leaked
 * password sets): loaded on the first check, not at start-up, since it costs a few milliseconds.
 */
function commonPasswords(): Set<string> {
  if (!common) {
    const require = createRequire(import.meta.url);
    const { dictionary } = require('@zxcvbn-ts/language-common') as { dictionary: Record<string, string[]> };
    common = new Set(dictionary['passwords-common'].slice(0, COMMON_PASSWORDS_COUNT));
  }
  return common;
}

/** Why `password` may not be an account's password (signed up with `email`), or null when it may. */
export function passwordProblem(password: string, email: string): string | null {
  if (password.trim() === '') return 'may not be only spaces';
  if ([...password].length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  const folded = password.normalize('NFKC').toLowerCase();
  const trimmed = folded.trim();
  const mail = email.trim().normalize('NFKC').toLowerCase();
  if (trimmed === mail || trimmed === mail.split('@')[0]) return 'may not be your e-mail address or its name part';
  if (commonPasswords().has(folded) || commonPasswords().has(trimmed)) {
    return `is one of the ${COMMON_PASSWORDS_COUNT.toLocaleString('en')} most common passwords, which are tried first by anyone guessing; choose another`;
  }
  return null;
}

/**
 * The one check of every new account password (sign-up, change, reset): 400 VALIDATION_ERROR
 * naming `field` and saying why.
 */
export function requireStrongPassword(field: string, password: string, email: string): void {
  const problem = passwordProblem(password, email);
  if (problem) throw validationError(field, problem);
}

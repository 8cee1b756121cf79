/**
 * The one spelling of an e-mail address that sign-in looks accounts up by and counts unknown
 * addresses under: trimmed and lower-cased. Every sign-in path (the API, the OAuth and device
 * forms) takes addresses through the shared `EmailSchema` first, which admits ASCII only, so this
 * lower-casing and the database's `lower()` of the unique index agree letter for letter; a
 * spelling such as U+0130 that JavaScript and the database lower-case differently never gets here.
 */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

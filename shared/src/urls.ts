// Every kind of URL the contracts take, built on zod 4's URL check (z.url()) and named by what it
// is for: a field picks one of these and never writes its own. Each keeps the exact set of inputs
// and the messages its fields have always had (test/contract, test/api).
import { z } from 'zod';

/** The most characters a URL field holds. */
export const MAX_URL_LENGTH = 2048;

/**
 * The hosts an `http:` redirect URI may name (RFC 8252 7.3, a native app's loopback listener);
 * the server's matching of redirect URIs reads the same list.
 */
export const LOOPBACK_REDIRECT_HOSTS: readonly string[] = ['127.0.0.1', '[::1]', 'localhost'];

/**
 * Any absolute URL the WHATWG parser reads, in any scheme, as z.url() checks it: webhook
 * endpoints, integration targets and QR logos, which the server checks further before it posts to
 * or fetches them (domain/net/). At most `max` characters.
 */
export const absoluteUrl = (max = MAX_URL_LENGTH) => z.string().max(max).check(z.url());

/** An operator's setting (HOP_BASE_URL, HOP_DASHBOARD_URL): any URL z.url() reads, written http(s)://. */
export const HttpUrlSettingSchema = z.string().check(z.url()).refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL');

const httpFormat = z.url({ protocol: z.regexes.httpProtocol, hostname: /./ });
const httpsFormat = z.url({ protocol: /^https$/, hostname: /./ });

/** Whether the URL parser reads `text` as it stands. */
function parses(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the URL parser reads `text`, as `format` allows. z.url() trims every kind of whitespace
 * before it parses, where the parser itself drops only ASCII spaces and controls at the ends: a
 * no-break space ending a host would pass z.url() alone, so the text must parse as it stands too.
 */
function readsAs(format: z.ZodURL, text: string): boolean {
  return parses(text) && format.safeParse(text).success;
}

/** An absolute http(s) URL with a host, written `http://` or `https://` from its first character. */
export const isHttpUrl = (text: string): boolean => /^https?:\/\//i.test(text) && readsAs(httpFormat, text);

/**
 * A link's destination (and a rule's, a variant's, the expired URL): an absolute http(s) URL of
 * at most 2,048 characters, stored normalised (WHATWG URL: scheme and host lower-cased, IDN hosts
 * in punycode, IPv4 written as dotted quads, default ports and dot segments dropped). Control
 * characters and backslashes are refused rather than silently dropped or read as `/`, so the URL
 * stored is the one the user meant and the one checked for loops.
 */
export const DestinationUrlSchema = z
  .string()
  .max(MAX_URL_LENGTH)
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\u0000-\u001f\u007f-\u009f]/.test(s), 'may not contain control characters (such as CR or LF)')
  .refine((s) => !s.includes('\\'), 'may not contain a backslash')
  .refine(isHttpUrl, 'must be an absolute http or https URL')
  .transform((s, ctx) => {
    let href = s;
    try {
      href = new URL(s).href;
    } catch {
      return s; // already reported above
    }
    if (href.length > MAX_URL_LENGTH) ctx.addIssue({ code: 'custom', message: 'is longer than 2,048 characters once normalised' });
    return href;
  })
  .meta({ example: 'https://example.com/launch', format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' });

/** An https URL with a host, stored as written: what a page embeds (a link preview's image). */
export const HttpsUrlSchema = z
  .string()
  .max(MAX_URL_LENGTH)
  .refine((s) => readsAs(httpsFormat, s), 'must be an https URL')
  .meta({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]://' });

const anyFormat = z.url();

/**
 * A redirect URI as registered: absolute, without a fragment; https, http on a loopback address
 * (any port will match, RFC 8252 7.3), or a private-use scheme with a dot (`com.example.app:/cb`).
 */
export const RedirectUriSchema = z
  .string()
  .max(2000)
  .refine((s) => {
    if (s.includes('#') || !readsAs(anyFormat, s)) return false;
    const u = new URL(s);
    if (u.protocol === 'https:') return true;
    if (u.protocol === 'http:') return LOOPBACK_REDIRECT_HOSTS.includes(u.hostname);
    return /^[a-z][a-z0-9+-]*\.[a-z0-9.+-]+:$/.test(u.protocol);
  }, 'must be an https URL, an http loopback URL (127.0.0.1, [::1], localhost) or a private-use scheme like com.example.app:/callback, without a fragment')
  .meta({ format: 'uri' });

import { z } from 'zod';

/**
 * Validation issues in words people use ("can't be empty", "must be at most 256 characters"),
 * not the validator's ("Too small: expected string to have >=1 characters"). The one mapping for
 * the server's VALIDATION_ERROR issues, the dashboard's forms and the CLI: each names its field
 * its own way (the API by path, a form beside its label, the CLI as its flag). A message a schema
 * writes itself ("may hold only A-Z, a-z, 0-9, _ and -") wins over this one.
 */
type Issue = z.core.$ZodRawIssue;

const count = (n: number | bigint, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${Number(n) === 1 ? one : many}`;

const UNITS: Record<string, [string, string?]> = { string: ['character'], file: ['byte'], map: ['entry', 'entries'] };

const TYPES: Record<string, string> = {
  string: 'text', number: 'a number', int: 'a whole number', bigint: 'a whole number', boolean: 'true or false',
  array: 'a list', object: 'an object', date: 'a date', null: 'null',
};

const FORMATS: Record<string, string> = {
  email: 'an e-mail address', url: 'a URL', uuid: 'a UUID', datetime: 'an ISO 8601 time such as 2026-11-25T10:00:00.000Z',
  date: 'a date such as 2026-11-25', time: 'a time such as 10:00:00', ipv4: 'an IPv4 address', ipv6: 'an IPv6 address',
  base64: 'base64', base64url: 'base64url', jwt: 'a JWT', e164: 'a phone number such as +14155550123',
};

const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

function size(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>): string {
  const limit = issue.code === 'too_small' ? issue.minimum : issue.maximum;
  const small = issue.code === 'too_small';
  const many = issue.origin === 'array' || issue.origin === 'set';
  if (many) {
    if (issue.exact) return `choose exactly ${limit}`;
    if (small) return Number(limit) <= 1 ? 'choose at least one' : `choose at least ${limit}`;
    return `choose at most ${limit}`;
  }
  const unit = UNITS[issue.origin];
  if (unit) {
    if (small && Number(limit) === 1 && issue.origin === 'string') return "can't be empty";
    const n = count(limit as number, ...unit);
    if (issue.exact) return `must be exactly ${n}`;
    return small ? `must be at least ${n}` : `must be at most ${n}`;
  }
  if (issue.origin === 'date') {
    const when = new Date(Number(limit)).toISOString();
    return small ? `must be ${issue.inclusive ? 'on or after' : 'after'} ${when}` : `must be ${issue.inclusive ? 'on or before' : 'before'} ${when}`;
  }
  if (small) return issue.inclusive ? `must be at least ${limit}` : `must be more than ${limit}`;
  return issue.inclusive ? `must be at most ${limit}` : `must be less than ${limit}`;
}

/** The message for one issue, as a predicate of its field ("can't be empty"). */
export function humanIssue(issue: Issue): string {
  switch (issue.code) {
    case 'too_small':
    case 'too_big':
      return size(issue);
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${TYPES[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      if (issue.values.length === 1) return `must be ${shown(issue.values[0])}`;
      return `must be one of ${issue.values.map(shown).join(', ')}`;
    case 'invalid_format':
      if (issue.format === 'starts_with') return `must start with "${(issue as { prefix?: string }).prefix}"`;
      if (issue.format === 'ends_with') return `must end with "${(issue as { suffix?: string }).suffix}"`;
      if (issue.format === 'includes') return `must include "${(issue as { includes?: string }).includes}"`;
      if (issue.format === 'regex') return 'holds characters that are not allowed here';
      return `must be ${FORMATS[issue.format] ?? `a valid ${issue.format}`}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `has ${issue.keys.length === 1 ? 'an unknown field' : 'unknown fields'}: ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'is none of the accepted forms';
    case 'invalid_key':
      return `holds a key that is not allowed`;
    case 'invalid_element':
      return `holds a value that is not allowed`;
    default:
      return 'is not valid';
  }
}

// The contract's schemas speak these words wherever they are checked: server, dashboard, CLI.
z.config({ customError: (issue) => humanIssue(issue) });

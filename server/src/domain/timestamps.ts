/** Timestamps leave the domain as ISO 8601 UTC with milliseconds (docs/api.md, Wire conventions). */
export function iso(d: Date | string): string {
  return (d instanceof Date ? d : new Date(d)).toISOString();
}

export function isoOrNull(d: Date | string | null | undefined): string | null {
  return d == null ? null : iso(d);
}

// What every importer yields, whatever service it reads: one record per short URL of the source.
// The planner (plan.ts) turns records into Hop link bodies; nothing here talks to the network.

export const IMPORT_SOURCES = ['bitly', 'dub', 'shlink', 'kutt', 'yourls'] as const;
export type ImportSourceName = (typeof IMPORT_SOURCES)[number];

/** One short URL of another service, as its API or export file gives it. */
export interface ImportedLink {
  /** The back-half at the source, as it is there (it may not be a valid Hop slug). */
  slug: string;
  /** The source's short domain (bit.ly, dub.sh, a custom one); null when the source does not say. */
  domain: string | null;
  url: string;
  title: string | null;
  description: string | null;
  tags: string[];
  expiresAt: string | null;
  /** Protected by a password at the source; the password itself never leaves it. */
  passwordProtected: boolean;
  /** When the link was created at the source. */
  createdAt: string | null;
  /** Lifetime clicks at the source; null when it does not say. */
  clicks: number | null;
  /** Device destinations the source keeps, which Hop keeps as `ios` and `android`. */
  ios?: string | null;
  android?: string | null;
  /** Clicks left before the link stops, when the source limits them. */
  maxClicks?: number | null;
  /** What the source has for this link that Hop cannot carry, in words. */
  notCarried: string[];
}

/** One GET to a source's API: the URL and its headers (the token among them). */
export interface SourceRequest {
  url: string;
  headers: Record<string, string>;
  /** What the importer is reading, for progress and errors ("links page 3"). */
  what: string;
}

export interface SourcePage {
  links: ImportedLink[];
  next: SourceRequest | null;
  /** How many links the source holds in all, when it says. */
  total?: number;
}

/** What a request builder may need besides the base URL and token. */
export interface SourceContext {
  now: () => Date;
  /** Hex MD5, for YOURLS' time-limited signature (injected: the browser has none built in). */
  md5: (text: string) => string;
}

export interface ImportSource {
  name: ImportSourceName;
  /** The service's public API root when it has a hosted one; self-hosted services need `--url`. */
  defaultUrl: string | null;
  /** Where the token comes from, for help and errors. */
  tokenHelp: string;
  api: {
    first(base: string, token: string, ctx: SourceContext): SourceRequest;
    /** One answer of the API read; throws an Error with the service's message when it is not the documented shape. */
    page(body: unknown, request: SourceRequest, base: string, token: string, ctx: SourceContext): SourcePage;
    /** A request per link for what the list does not carry (Bitly's click counts), and how its answer updates the link. */
    detail?: {
      request(link: ImportedLink, base: string, token: string): SourceRequest | null;
      apply(link: ImportedLink, body: unknown): ImportedLink;
    };
  };
  /** The service's own export file (CSV rows by header), when it offers one. */
  exportFile?: {
    describe: string;
    parse(rows: Record<string, string>[]): ImportedLink[];
  };
}

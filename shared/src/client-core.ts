import type { z } from 'zod';
import type { SentResponse } from './http-send.js';
import type { RouteName, Routes } from './routes.js';
import { ROUTE_PATHS } from './route-paths.js';

export { ROUTE_PATHS };
// Every route has its method and path there (route-paths.test.ts keeps them equal to routes.ts).
const routePaths: Record<RouteName, readonly [string, string]> = ROUTE_PATHS;
import type { ErrorCode } from './errors.js';

type InputPart<R, K extends string, F extends string> = R extends { [P in K]: infer S extends z.ZodType }
  ? { [P in F]: z.input<S> }
  : { [P in F]?: undefined };

/** What a call needs: the route's params, query and body, each only where the route has one. */
export type RouteInput<N extends RouteName> = InputPart<Routes[N], 'params', 'params'> &
  Partial<InputPart<Routes[N], 'query', 'query'>> &
  InputPart<Routes[N], 'body', 'body'> & {
    headers?: Record<string, string>;
    idempotencyKey?: string;
  };
export type RouteOutput<N extends RouteName> = z.output<Routes[N]['response']>;

/** Routes that answer a page of a list (`data` and `pagination`). */
export type ListRouteName = { [N in RouteName]: RouteOutput<N> extends { pagination: { nextCursor: string | null } } ? N : never }[RouteName];
/** One element of a list route's `data`. */
export type ListItem<N extends ListRouteName> = RouteOutput<N> extends { data: (infer T)[] } ? T : never;

/** A non-2xx answer in the contract's error shape, or a transport failure (`statusCode` 0). */
export class HopApiError extends Error {
  constructor(
    readonly code: ErrorCode | 'NETWORK_ERROR',
    message: string,
    readonly statusCode: number,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string | string[] | undefined> = {},
  ) {
    super(message);
    this.name = 'HopApiError';
  }
}

/**
 * The one call a client makes to send a request: over node:http in the CLI and tests
 * (`./http-send.ts`), over `fetch` in the dashboard, which passes its own in.
 */
export type Send = (url: string, method: string, headers: Record<string, string>, payload?: string) => Promise<SentResponse>;
export type { SentResponse };

export interface HopClientOptions {
  baseUrl: string;
  apiKey?: string;
  /** A dashboard-session JWT or an OAuth access token, sent as a bearer token. */
  token?: string;
  userAgent?: string;
  /** Parse each success body with its route's schema: the tests use it to hold the server to the contract. */
  validateResponses?: boolean;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text: string;
}

/** The error of a non-2xx answer: the contract's, or INTERNAL_ERROR for a body not in its shape. */
export function errorOf(res: RawResponse, base: string): HopApiError {
  const err = (res.body as { error?: { code: ErrorCode; message: string; details?: Record<string, unknown> } })?.error;
  if (err?.code) return new HopApiError(err.code, err.message, res.status, err.details ?? {}, res.headers);
  return new HopApiError('INTERNAL_ERROR', `unexpected ${res.status} answer from ${base}`, res.status, {}, res.headers);
}

export function fillPath(path: string, params: Record<string, unknown> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === null) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
}

function toQueryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) qs.set(k, String(v));
  const s = qs.toString();
  return s ? `?${s}` : '';
}

/** The request that calls a route of the table: method, filled path with query, body, headers. */
export function routeRequest<N extends RouteName>(name: N, input: RouteInput<N>) {
  const [method, path] = routePaths[name];
  const i = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; headers?: Record<string, string>; idempotencyKey?: string };
  const headers = { ...i.headers };
  if (i.idempotencyKey) headers['idempotency-key'] = i.idempotencyKey;
  return { method, path: fillPath(path, i.params) + toQueryString(i.query), init: { body: i.body, headers } };
}

type Call = <N extends RouteName>(name: N, input: RouteInput<N>) => Promise<RouteOutput<N>>;

/**
 * `paginate` over a `call`: every element of a list, page after page from `input.query.cursor`
 * (the first page when absent), following `nextCursor`. With `maxPages`, stops after that many
 * pages and answers the cursor of the page after them (null at the end). A wrapper of `call` (the
 * CLI's retries) builds its own, so every page goes through it.
 */
export function paginateWith(call: Call) {
  return async function paginate<N extends ListRouteName>(
    name: N, input: RouteInput<N>, opts: { maxPages?: number } = {},
  ): Promise<{ data: ListItem<N>[]; nextCursor: string | null }> {
    const query = (input as { query?: Record<string, unknown> }).query;
    const data: ListItem<N>[] = [];
    let cursor = query?.cursor as string | undefined;
    for (let pages = 0; pages < (opts.maxPages ?? Infinity); pages++) {
      const page = (await call(name, { ...input, query: { ...query, cursor } } as RouteInput<N>)) as { data: ListItem<N>[]; pagination: { nextCursor: string | null } };
      data.push(...page.data);
      cursor = page.pagination.nextCursor ?? undefined;
      if (!cursor) break;
    }
    return { data, nextCursor: cursor ?? null };
  };
}

/** A client over the transport given: the core, without node:http, that the dashboard imports. */
export function createHopClient(options: HopClientOptions & { send: Send }) {
  const { send } = options;
  const base = options.baseUrl.replace(/\/+$/, '');

  function authHeaders(): Record<string, string> {
    const h: Record<string, string> = { 'user-agent': options.userAgent ?? 'hop-client' };
    if (options.apiKey) h['x-api-key'] = options.apiKey;
    if (options.token) h.authorization = `Bearer ${options.token}`;
    return h;
  }

  /** Any request, answered as it came: for routes outside the table and for tests of bad input. */
  async function raw(method: string, path: string, init: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
    const headers: Record<string, string> = { ...authHeaders(), ...init.headers };
    let payload: string | undefined = init.rawBody;
    if (init.body !== undefined) {
      payload = JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    let res;
    try {
      res = await send(base + path, method, headers, payload);
    } catch (err) {
      throw new HopApiError('NETWORK_ERROR', `cannot reach ${base}: ${(err as Error).message}`, 0);
    }
    let body: unknown = res.text;
    if (String(res.headers['content-type'] ?? '').includes('json') && res.text) {
      try {
        body = JSON.parse(res.text);
      } catch {
        body = res.text;
      }
    }
    return { status: res.status, headers: res.headers, body, text: res.text };
  }

  /** Call a route of the table; resolves with the success body, rejects with a HopApiError. */
  async function call<N extends RouteName>(name: N, input: RouteInput<N>): Promise<RouteOutput<N>> {
    const { method, path, init } = routeRequest(name, input);
    const res = await raw(method, path, init);
    if (res.status >= 200 && res.status < 300) {
      // The schemas (zod and every contract) load only for callers that validate: the tests.
      if (options.validateResponses) return (await import('./routes.js')).routes[name].response.parse(res.body) as RouteOutput<N>;
      return res.body as RouteOutput<N>;
    }
    throw errorOf(res, base);
  }

  return { call, raw, paginate: paginateWith(call), baseUrl: base };
}

export type HopClient = ReturnType<typeof createHopClient>;

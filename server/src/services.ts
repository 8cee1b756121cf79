import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dashboardPath } from '@hop/shared';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { systemClock, type Clock } from './domain/clock.js';
import { newId } from './domain/ids.js';
import { createSessionTokens } from './domain/auth/session-tokens.js';
import { createUsersService } from './domain/users/users-service.js';
import { createSignupPolicy } from './domain/users/signup-policy.js';
import { createPasswordChecks } from './domain/auth/password-checks.js';
import { createWorkspacesService } from './domain/workspaces/workspaces-service.js';
import { createApiKeysService } from './domain/api-keys/api-keys-service.js';
import { createLinksService } from './domain/links/links-service.js';
import { createIdempotencyService } from './domain/idempotency/idempotency-service.js';
import { createClickPipeline } from './domain/clicks/click-pipeline.js';
import { createClickSpool } from './domain/clicks/click-spool.js';
import { createVisitorSalts } from './domain/clicks/visitor-salts.js';
import { createGeoLookup } from './domain/clicks/visit-details.js';
import { createRedirectLinks } from './domain/links/redirect-links.js';
import { createLinkResolver } from './domain/links/link-resolve.js';
import { createLinkHealth } from './domain/links/link-health.js';
import { createPasswordAttempts } from './domain/links/password-attempts.js';
import { createLinkCache } from './redirector/link-cache.js';
import { createLinkLookups } from './domain/links/link-lookups.js';
import { createAnalyticsService } from './domain/analytics/analytics-service.js';
import { createEventOutbox } from './domain/events/event-outbox.js';
import { createClickEventProducer } from './domain/events/click-event-producer.js';
import { createEventStreamHub } from './domain/events/event-stream-hub.js';
import { createStreamResults } from './domain/events/stream-results.js';
import { createEventTrigger } from './domain/events/event-trigger.js';
import { createSecretBox } from './domain/webhooks/webhook-secrets.js';
import { createWebhookSender } from './domain/webhooks/webhook-sender.js';
import { createWebhooksService } from './domain/webhooks/webhooks-service.js';
import { createSafePost, createUrlGuard } from './domain/net/safe-post.js';
import { createDispatcher } from './dispatcher/dispatcher.js';
import { createOutcomeTally } from './dispatcher/delivery-outcomes.js';
import { createRedirector, type RedirectorDeps } from './redirector/visit.js';
import { createFastRedirect } from './redirector/fast-redirect.js';
import { createSmartVisits } from './redirector/smart-visit.js';
import { createUnlockCookies } from './redirector/password-gate.js';
import { createMembersService } from './domain/workspaces/members-service.js';
import { createDomainsService } from './domain/domains/domains-service.js';
import { createTxtLookup } from './domain/domains/txt-lookup.js';
import { createTagsService } from './domain/tags/tags-service.js';
import { createHostDomains } from './redirector/host-domains.js';
import { createQrService } from './domain/qr/qr-service.js';
import { createQrTargets } from './redirector/qr-targets.js';
import { safeFetch } from './domain/net/safe-fetch.js';
import { createSqlCounterStore } from './domain/rate-limits/counter-store.js';
import { createRedisCounterStore } from './domain/rate-limits/redis-counter-store.js';
import { createRateLimiter } from './domain/rate-limits/rate-limiter.js';
import { createRateLimitsService } from './domain/rate-limits/rate-limits-service.js';
import { createPlanMode } from './domain/plans/plan-mode.js';
import { createFeatureGate } from './domain/plans/plan-gates.js';
import { createOAuthClientsService } from './domain/oauth/oauth-clients-service.js';
import { createOAuthService } from './domain/oauth/oauth-service.js';
import { createDeviceCodes } from './domain/oauth/device-codes.js';
import { createInviteMailer, type SendInvite } from './domain/mail/invite-mailer.js';
import { createMailer } from './domain/mail/mailer.js';
import { createSessions } from './domain/auth/sessions-service.js';
import { createPasswordResets } from './domain/auth/password-resets.js';
import { createAccountPasswords } from './domain/users/account-passwords.js';
import { createOperator } from './domain/users/operator.js';
import { createOAuthGrants } from './domain/oauth/oauth-grants.js';
import { createCiTrustsService } from './domain/ci-trust/ci-trusts-service.js';
import { createIssuerKeys } from './domain/ci-trust/issuer-keys.js';
import { createImportReader } from './domain/import/import-reader.js';

/** HOP_SECRET, or one generated once into HOP_DATA_DIR and reused on every start (docs/api.md, Operating the server). */
export function loadSecret(config: Pick<Config, 'secret' | 'dataDir'>): string {
  if (config.secret) return config.secret;
  const file = join(config.dataDir, 'secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(config.dataDir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

/** Every domain service, wired once; the API, the redirector and the jobs all take them from here. */
export interface ServiceOptions {
  clock?: Clock;
  log?: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export function createServices(config: Config, db: Database, opts: ServiceOptions = {}) {
  const clock = opts.clock ?? systemClock;
  const secretText = loadSecret(config);
  const oauthGrants = createOAuthGrants({ db, clock });
  const sessions = createSessions({
    db, clock, newId, grants: oauthGrants,
    tokens: createSessionTokens({ secret: new TextEncoder().encode(secretText), clock }),
  });
  const ownHosts = [config.shortDomain, new URL(config.baseUrl).host];
  // The one decision HOP_PLANS makes: how a workspace's plan reads (domain/plans/plan-mode.ts).
  const plans = createPlanMode(config.planMode);
  const outbox = createEventOutbox({ newId, plans });
  const clicks = createClickPipeline({
    db,
    flushEveryMs: config.clickFlushMs,
    onError: (err) => opts.log?.error({ err }, 'writing clicks failed; they stay buffered for the next flush'),
    onDropped: (n) => opts.log?.warn({ dropped: n }, 'click buffer full: oldest visits dropped'),
    // Visits the database cannot take wait on disk, in order, and are written once it is back.
    spool: createClickSpool({ dir: join(config.dataDir, 'click-spool'), maxBytes: config.clickSpoolMaxBytes }),
    maxBuffered: config.clickBufferMax,
    onSpoolFull: (bytes) => opts.log?.error({ bytes }, 'click spool full (HOP_CLICK_SPOOL_MAX_BYTES): visits wait in memory, the oldest dropped past HOP_CLICK_BUFFER_MAX'),
    onStuck: (seconds) => opts.log?.error({ seconds }, 'writing clicks has not settled: no visit is written until it does; new ones wait in memory and the spool'),
  });
  const salts = createVisitorSalts({ db, clock });
  const redirectLinks = createRedirectLinks({ db });
  const linkLookups = createLinkLookups({
    links: redirectLinks,
    // PostgreSQL: a few statements overlap on the pool, leaving the API connections of its own. The
    // embedded database runs one statement at a time: one out, the next gathering what misses meanwhile.
    concurrency: db.kind === 'postgres' ? 3 : 1,
    timeoutMs: config.linkLookupTimeoutMs,
  });
  const linkCache = createLinkCache({ links: linkLookups, defaultDomain: config.shortDomain });
  const workspaces = createWorkspacesService({ db, newId, plans, defaultPlan: config.defaultPlan });
  const reservedHosts = [config.shortDomain, config.baseUrl].map((h) => new URL(h.includes('://') ? h : `http://${h}`).hostname);
  const hostDomains = createHostDomains({ shortDomain: config.shortDomain, load: () => domains.verifiedNames() });
  const qr = createQrService({
    db, clock, newId,
    config: { baseUrl: config.baseUrl, shortDomain: config.shortDomain, shortScheme: config.shortScheme },
    // docs/api.md, QR codes: an HTTPS PNG of at most 1 MiB, within 5 s, under the webhook address rules.
    fetchLogo: async (url) => (await safeFetch(url, { allowPrivate: config.allowPrivateUrls, maxBytes: 1024 * 1024, timeoutMs: 5000, field: 'logoUrl' })).body,
    onDeleted: (linkId) => qrTargets.invalidateLink(linkId),
  });
  const qrTargets = createQrTargets({ find: qr.findTarget });
  /** A link changed in this process (or, via NOTIFY, in another): drop what every cache keeps of it. */
  const linkChanged = (linkId: string) => {
    linkLookups.invalidate();
    linkCache.invalidate(linkId);
    qrTargets.invalidateLink(linkId);
    qr.linkChanged(linkId);
  };
  const domains = createDomainsService({
    db, clock, newId, lookupTxt: createTxtLookup(config.dnsServers), reservedHosts, onChanged: hostDomains.invalidate,
  });
  const oauthClients = createOAuthClientsService({ db, newId });
  // Invites and password-reset links go out by e-mail when SMTP_URL is set. A failed invite send is
  // logged, the invite still stands (its creation answer carries the acceptUrl to pass on by hand).
  const sendMail = config.smtpUrl ? createMailer({ smtpUrl: config.smtpUrl, baseUrl: config.baseUrl }) : undefined;
  const mailInvite = sendMail && createInviteMailer(sendMail);
  const sendInvite: SendInvite | undefined = mailInvite && (async (mail) => {
    await mailInvite(mail).catch((err) => opts.log?.error({ err, inviteId: mail.invite.id }, 'sending the invite e-mail failed'));
  });
  const features = createFeatureGate(config.dashboardUrl);
  const sender = createWebhookSender({ post: createSafePost({ allowPrivate: config.allowPrivateUrls }) });
  const webhooks = createWebhooksService({
    db, clock, newId, sender,
    box: createSecretBox(secretText),
    checkUrl: createUrlGuard({ allowPrivate: config.allowPrivateUrls }),
    config: { shortDomain: config.shortDomain, shortScheme: config.shortScheme },
    plans, features,
  });
  // Counters shared by every process: in Redis when configured, else in the database (docs/api.md, Limits).
  const rateLimits = createRateLimitsService({
    db,
    secret: secretText,
    settings: config.rateLimits,
    plans,
    limiter: createRateLimiter({
      store: config.redisUrl ? createRedisCounterStore(config.redisUrl) : createSqlCounterStore({ db }),
      onStoreError: (err) => opts.log?.warn({ err }, 'rate-limit store unavailable: request let through'),
    }),
  });
  const geo = createGeoLookup(config.geoipDb);
  const redirectorDeps: RedirectorDeps = {
    cache: linkCache,
    links: redirectLinks,
    clicks,
    salts,
    geo,
    attempts: createPasswordAttempts({ db, clock, outbox }),
    cookies: createUnlockCookies(secretText),
    clock,
    geoHeader: config.geoHeader,
    secureCookies: config.shortScheme === 'https',
    smart: createSmartVisits({ geo, geoHeader: config.geoHeader, salts }),
  };

  const oauth = createOAuthService({ db, clock, clients: oauthClients, workspaces, grants: oauthGrants });
  const passwordChecks = createPasswordChecks({ db, clock, secret: secretText });
  const passwordResets = createPasswordResets({
    db, clock, sendMail,
    resetUrl: (token) => `${config.dashboardUrl}${dashboardPath('resetPassword')}#token=${encodeURIComponent(token)}`,
    onMailError: (err) => opts.log?.error({ err }, 'sending a password-reset e-mail failed'),
  });
  const operator = createOperator({ db });
  const members = createMembersService({
    db, clock, newId, workspaces,
    acceptUrl: (token) => `${config.dashboardUrl}${dashboardPath('invite', { token })}`,
    sendInvite,
  });
  const signupPolicy = createSignupPolicy({ db, mode: config.signup });
  // What this process's dispatcher recorded, by outcome: counted here by the embedded database's
  // dispatcher, reported by the dispatcher's thread on PostgreSQL (main.ts).
  const deliveryOutcomes = createOutcomeTally();

  return {
    db,
    plans,
    features,
    rateLimits,
    outbox,
    clickEvents: createClickEventProducer({ db, outbox }),
    webhooks,
    streamResults: createStreamResults({ db }),
    triggerEvent: createEventTrigger({
      db, clock, newId, outbox, webhooks, features, config: { shortDomain: config.shortDomain, shortScheme: config.shortScheme },
    }),
    eventStreams: createEventStreamHub({ db, clock, newId, serverSecret: secretText }),
    dispatcher: createDispatcher({
      db, clock, sender, signingSecrets: webhooks.signingSecrets, retryScale: config.webhookRetryScale,
      plans, log: opts.log, outcomes: deliveryOutcomes,
    }),
    deliveryOutcomes,
    clock,
    sessions,
    clicks,
    signupPolicy,
    users: createUsersService({ db, newId, sessions, checks: passwordChecks, operator, signupPolicy, claimInvite: members.claimInvite }),
    operator,
    passwordResets,
    accountPasswords: createAccountPasswords({ db, checks: passwordChecks, sessions, resets: passwordResets }),
    oauthGrants,
    workspaces,
    members,
    oauthClients,
    oauth,
    deviceCodes: createDeviceCodes({ db, clock, oauth }),
    apiKeys: createApiKeysService({ db, newId, clock }),
    ciTrusts: createCiTrustsService({
      db, clock, newId, outbox, audience: config.baseUrl,
      // docs/ci.md: an issuer's discovery document and keys, JSON of at most 64 KiB within 5 s, under the webhook address rules.
      keys: createIssuerKeys({
        fetchJson: async (url) => JSON.parse((await safeFetch(url, {
          allowPrivate: config.allowPrivateUrls, maxBytes: 64 * 1024, timeoutMs: 5000, field: 'issuer', accept: 'application/json',
        })).body.toString('utf8')) as unknown,
      }),
    }),
    links: createLinksService({
      db, clock, newId, domains, onLinkChanged: linkChanged, outbox,
      config: { shortDomain: config.shortDomain, shortScheme: config.shortScheme, dashboardUrl: config.dashboardUrl, ownHosts },
    }),
    salts,
    linkResolver: createLinkResolver({ db, clock, salts }),
    linkHealth: createLinkHealth({ db, clock, allowPrivate: config.allowPrivateUrls, hostSpacingMs: config.linkCheckHostSpacingMs }),
    importReader: createImportReader({ allowPrivate: config.allowPrivateUrls }),
    linkCache,
    linkLookups,
    redirectLinks,
    linkChanged,
    qr,
    qrTargets,
    domains,
    hostDomains,
    tags: createTagsService({ db }),
    analytics: createAnalyticsService({
      db, clock, shareWithinMs: config.clickFlushMs,
      shortUrl: (domain, slug) => `${domain === config.shortDomain ? config.shortScheme : 'https'}://${domain}/${slug}`,
    }),
    redirector: createRedirector(redirectorDeps),
    // The same visits' hot path, in front of Fastify (api/app.ts).
    fastRedirect: createFastRedirect({ ...redirectorDeps, hostDomains, trustProxy: config.trustProxy }),
    idempotency: createIdempotencyService({ db }),
  };
}

export type Services = ReturnType<typeof createServices>;

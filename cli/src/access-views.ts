import type { ApiKey, CiTrust, CreatedApiKey, CreatedOAuthClient, Invite, Member, OAuthClient, OAuthGrant } from '@hop/shared';
import { GITHUB_ACTIONS_ISSUER } from '@hop/shared/constants';
import { dateColumn, type Column } from './render.js';
import { relativeTime } from './table-fit.js';

export const apiKeyColumns: Column<ApiKey>[] = [
  { header: 'ID', value: (k) => k.id },
  { header: 'NAME', value: (k) => k.name, cutTo: 10 },
  { header: 'PREFIX', value: (k) => `${k.prefix}…`, drop: 4 },
  { header: 'SCOPES', value: (k) => k.scopes, cutTo: 12, drop: 3 },
  { header: 'LAST USED', value: (k) => k.lastUsedAt ?? 'never', shown: (k) => (k.lastUsedAt ? relativeTime(k.lastUsedAt) : 'never'), drop: 6 },
  dateColumn('CREATED', (k) => k.createdAt),
];

export const ciTrustColumns: Column<CiTrust>[] = [
  { header: 'ID', value: (t) => t.id },
  { header: 'REPOSITORY', value: (t) => t.repository, cutTo: 12 },
  { header: 'REQUIRES', value: (t) => [t.ref, t.environment && `env:${t.environment}`, t.workflow].filter(Boolean).join(' ') || 'any job', cutTo: 12, drop: 4 },
  { header: 'SCOPES', value: (t) => t.scopes, cutTo: 12, drop: 3 },
  { header: 'ISSUER', value: (t) => (t.issuer === GITHUB_ACTIONS_ISSUER ? 'GitHub Actions' : t.issuer), cutTo: 14, drop: 5 },
  { header: 'LAST USED', value: (t) => t.lastUsedAt ?? 'never', shown: (t) => (t.lastUsedAt ? relativeTime(t.lastUsedAt) : 'never'), drop: 6 },
  dateColumn('CREATED', (t) => t.createdAt),
];

export const createdKeyRecord = (k: CreatedApiKey) => ({ id: k.id, name: k.name, scopes: k.scopes, workspaceId: k.workspaceId, key: k.key });

export const oauthClientColumns: Column<OAuthClient>[] = [
  { header: 'CLIENT ID', value: (c) => c.clientId },
  { header: 'NAME', value: (c) => c.name, cutTo: 10 },
  { header: 'TYPE', value: (c) => c.type, drop: 5 },
  { header: 'REDIRECT URIS', value: (c) => c.redirectUris, cutTo: 16, drop: 3 },
  dateColumn('CREATED', (c) => c.createdAt),
];

export const oauthClientRecord = (c: CreatedOAuthClient) => ({
  clientId: c.clientId, name: c.name, type: c.type, redirectUris: c.redirectUris,
  ...(c.clientSecret ? { clientSecret: c.clientSecret } : {}),
});

export const memberColumns: Column<Member>[] = [
  { header: 'USER ID', value: (m) => m.userId },
  { header: 'EMAIL', value: (m) => m.email, cutTo: 16 },
  { header: 'NAME', value: (m) => m.name, cutTo: 10, drop: 3 },
  { header: 'ROLE', value: (m) => m.role },
  dateColumn('JOINED', (m) => m.joinedAt),
];

export const inviteColumns: Column<Invite>[] = [
  { header: 'ID', value: (i) => i.id },
  { header: 'EMAIL', value: (i) => i.email, cutTo: 16 },
  { header: 'ROLE', value: (i) => i.role },
  dateColumn('EXPIRES', (i) => i.expiresAt, 5),
  dateColumn('CREATED', (i) => i.createdAt),
];

export const grantColumns: Column<OAuthGrant>[] = [
  { header: 'ID', value: (g) => g.id },
  { header: 'APP', value: (g) => g.clientName, cutTo: 10 },
  { header: 'WORKSPACES', value: (g) => g.workspaces.map((w) => w.slug), cutTo: 12, drop: 4 },
  { header: 'SCOPES', value: (g) => g.scopes, cutTo: 12, drop: 3 },
  { header: 'LAST USED', value: (g) => g.lastUsedAt ?? 'never', shown: (g) => (g.lastUsedAt ? relativeTime(g.lastUsedAt) : 'never'), drop: 6 },
  dateColumn('CONNECTED', (g) => g.createdAt),
];

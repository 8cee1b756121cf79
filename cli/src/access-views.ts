import type { ApiKey, CreatedApiKey, CreatedOAuthClient, Invite, Member, OAuthClient } from '@hop/shared';
import type { Column } from './render.js';

export const apiKeyColumns: Column<ApiKey>[] = [
  { header: 'ID', value: (k) => k.id },
  { header: 'NAME', value: (k) => k.name },
  { header: 'PREFIX', value: (k) => `${k.prefix}…` },
  { header: 'SCOPES', value: (k) => k.scopes },
  { header: 'LAST USED', value: (k) => k.lastUsedAt ?? 'never' },
  { header: 'CREATED', value: (k) => k.createdAt },
];

export const createdKeyRecord = (k: CreatedApiKey) => ({ id: k.id, name: k.name, scopes: k.scopes, workspaceId: k.workspaceId, key: k.key });

export const oauthClientColumns: Column<OAuthClient>[] = [
  { header: 'CLIENT ID', value: (c) => c.clientId },
  { header: 'NAME', value: (c) => c.name },
  { header: 'TYPE', value: (c) => c.type },
  { header: 'REDIRECT URIS', value: (c) => c.redirectUris },
  { header: 'CREATED', value: (c) => c.createdAt },
];

export const oauthClientRecord = (c: CreatedOAuthClient) => ({
  clientId: c.clientId, name: c.name, type: c.type, redirectUris: c.redirectUris,
  ...(c.clientSecret ? { clientSecret: c.clientSecret } : {}),
});

export const memberColumns: Column<Member>[] = [
  { header: 'USER ID', value: (m) => m.userId },
  { header: 'EMAIL', value: (m) => m.email },
  { header: 'NAME', value: (m) => m.name },
  { header: 'ROLE', value: (m) => m.role },
  { header: 'JOINED', value: (m) => m.joinedAt },
];

export const inviteColumns: Column<Invite>[] = [
  { header: 'ID', value: (i) => i.id },
  { header: 'EMAIL', value: (i) => i.email },
  { header: 'ROLE', value: (i) => i.role },
  { header: 'EXPIRES', value: (i) => i.expiresAt },
  { header: 'CREATED', value: (i) => i.createdAt },
];

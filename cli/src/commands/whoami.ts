import { SCOPES, type Usage, type User } from '@hop/shared';
import { HopApiError } from '@hop/shared/client';
import { BaseCommand } from '../base-command.js';
import { UsageError } from '../errors.js';
import type { CredentialKind } from '../config-store.js';
import { printRecord } from '../render.js';
import { resolveWorkspace, type WorkspaceRef } from '../workspace-ref.js';

export interface WhoamiResult {
  user: User;
  apiUrl: string;
  workspace: string | null;
  /** The workspace's slug, when known. */
  workspaceSlug: string | null;
  credentialKind: CredentialKind;
  credentialSource: 'env' | 'config' | 'oidc';
  /** What the credential may do: a browser login's granted scopes; every scope for a session; null for a key (see `hop keys list`). */
  scopes: string[] | null;
  /** When the credential expires (a browser login's access token is refreshed before then); null for a key. */
  expiresAt: string | null;
  /** The selected workspace's plan and what is left of its limits; null without a workspace (or the scope to read it). */
  usage: Usage | null;
}

/** The `exp` of a JWT (a session token), read without verifying: only to show it. */
function jwtExpiry(token: string): string | null {
  try {
    const exp = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')).exp;
    return typeof exp === 'number' ? new Date(exp * 1000).toISOString() : null;
  } catch {
    return null;
  }
}

/** Plan and quota as people read them: what is left of each limit and when it starts afresh. */
function usageLines(u: Usage): Record<string, string> {
  const time = (iso: string) => iso.slice(11, 16) + ' UTC';
  const r = u.rateLimit;
  return {
    plan: u.plan === 'self-hosted' ? 'self-hosted (every feature, no quotas)' : u.plan,
    requests: r
      ? `${r.minute.remaining}/${r.minute.limit} left this minute, ${r.hour.remaining}/${r.hour.limit} this hour (resets ${time(r.hour.resetAt)})`
      : 'unlimited',
    qrCodes: u.qr.limit === null ? 'unlimited' : `${u.qr.remaining}/${u.qr.limit} left this hour${u.qr.remaining === 0 && u.qr.resetAt ? ` (more from ${time(u.qr.resetAt)})` : ''}`,
    clickRetention: u.limits.clickRetentionDays === null ? 'kept for good' : `${u.limits.clickRetentionDays} days`,
  };
}

export default class Whoami extends BaseCommand<typeof Whoami> {
  static summary = 'Show the user, server, workspace, scopes and expiry of the credential in use';
  static examples = ['<%= config.bin %> whoami', 'HOP_API_KEY=hop_live_... <%= config.bin %> whoami --json'];

  async run(): Promise<WhoamiResult> {
    const { data: user } = await this.api.call('getMe', {});
    const { apiUrl, credentialKind, credentialSource, credential } = this.settings;
    const oauth = credentialKind === 'oauth' && credentialSource === 'config' ? this.store.get('oauth') : undefined;
    const workspace = await this.currentWorkspace();
    const result: WhoamiResult = {
      user,
      apiUrl,
      workspace: workspace?.id ?? null,
      workspaceSlug: workspace?.slug ?? null,
      credentialKind: credentialKind!,
      credentialSource: credentialSource!,
      scopes: oauth ? oauth.scopes : credentialKind === 'token' ? [...SCOPES] : null,
      expiresAt: oauth ? oauth.expiresAt : credentialKind === 'token' ? jwtExpiry(credential!) : null,
      usage: null,
    };
    result.usage = await this.usageOf(result.workspace);
    if (!this.jsonEnabled()) {
      printRecord(this.io, {
        user: `${user.name} <${user.email}>`, userId: user.id, apiUrl,
        workspace: workspace ? (workspace.slug ? `${workspace.slug} (${workspace.id})` : workspace.id) : 'none selected (hop workspaces use <slug>)',
        credential: `${credentialKind} (from ${credentialSource})`,
        scopes: credentialKind === 'token' ? 'all (a session: its role decides)' : result.scopes ?? 'those of the key (hop keys list)',
        expiresAt: result.expiresAt ? `${result.expiresAt}${oauth ? ' (refreshed automatically)' : ''}` : 'never (until revoked)',
        ...(result.usage ? usageLines(result.usage) : {}),
      });
    }
    return result;
  }

  /** The workspace commands would act in; its slug from the login when stored with it. */
  private async currentWorkspace(): Promise<WorkspaceRef | null> {
    try {
      const ref = await resolveWorkspace(this.api, this.settings, process.env.HOP_WORKSPACE || undefined);
      const storedSlug = ref.id === this.store.get('workspace') ? this.store.get('workspaceSlug') : undefined;
      return { id: ref.id, slug: ref.slug ?? storedSlug ?? (await this.slugOf(ref.id)) };
    } catch (err) {
      if (err instanceof UsageError) return null;
      throw err;
    }
  }

  /** A workspace's slug from the server; undefined when the credential may not read it. */
  private async slugOf(workspaceId: string): Promise<string | undefined> {
    try {
      return (await this.api.call('getWorkspace', { params: { workspaceId } })).data.slug;
    } catch (err) {
      if (err instanceof HopApiError) return undefined;
      throw err;
    }
  }

  /** The workspace's usage; null when none is selected or the credential may not read it. */
  private async usageOf(workspaceId: string | null): Promise<Usage | null> {
    if (!workspaceId) return null;
    try {
      return (await this.api.call('getUsage', { params: { workspaceId } })).data;
    } catch (err) {
      if (err instanceof HopApiError && ['INSUFFICIENT_SCOPE', 'NOT_FOUND', 'FORBIDDEN'].includes(err.code)) return null;
      throw err;
    }
  }
}

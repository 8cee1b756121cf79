import { Flags } from '@oclif/core';
import { SCOPES, type CiTrust, type CreateCiTrustBody } from '@hop/shared';
import { BaseCommand } from '../../../base-command.js';
import { workspaceFlag } from '../../../flags.js';

export default class CiTrustAdd extends BaseCommand<typeof CiTrustAdd> {
  static summary = 'Trust the CI jobs of a repository: they exchange their OIDC ID token for a 15-minute token, with no stored secret';
  static description = 'Jobs whose ID token comes from the issuer (GitHub Actions unless --issuer names another, e.g. https://gitlab.com) and names the repository, and the ref, environment and workflow when given, get these scopes in the workspace. Admins only; see docs/ci.md.';
  static examples = [
    '<%= config.bin %> ci trust add --repository acme/site --ref refs/heads/main --scope links:read --scope links:write',
    '<%= config.bin %> ci trust add --issuer https://gitlab.com --repository acme/site --environment production --scope links:write --json',
  ];
  static flags = {
    workspace: workspaceFlag(),
    repository: Flags.string({ required: true, description: 'owner/name (GitHub), or the project path (GitLab)' }),
    issuer: Flags.string({ description: 'the OIDC issuer URL (default: GitHub Actions, https://token.actions.githubusercontent.com)' }),
    ref: Flags.string({ description: 'only this ref, e.g. refs/heads/main or refs/tags/v1' }),
    environment: Flags.string({ description: 'only jobs of this deployment environment' }),
    workflow: Flags.string({ description: 'only this workflow: its file (.github/workflows/links.yml, .gitlab-ci.yml) or, on GitHub, its name' }),
    scope: Flags.string({ required: true, multiple: true, options: [...SCOPES], description: 'a scope the exchanged token carries; repeat for several' }),
  };

  async run(): Promise<CiTrust> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { repository, issuer, ref, environment, workflow } = this.flags;
    const body: CreateCiTrustBody = { repository, issuer, ref, environment, workflow, scopes: this.flags.scope as CreateCiTrustBody['scopes'] };
    const { data } = await this.api.call('createCiTrust', { params: { workspaceId }, body });
    this.info(`Trusted ${data.repository} (${data.id}): its jobs can now run hop with no secret`);
    return data;
  }
}

import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { resolveWorkspace, type WorkspaceRef } from '../../workspace-ref.js';

export default class WorkspacesUse extends BaseCommand<typeof WorkspacesUse> {
  static summary = 'Choose the default workspace for later commands (no new login needed)';
  static examples = ['<%= config.bin %> workspaces use acme', '<%= config.bin %> workspaces use ws_2Ab9xYz01234567890123'];
  static args = { workspace: Args.string({ required: true, description: 'workspace slug or id' }) };

  async run(): Promise<WorkspaceRef> {
    // A key or third-party token can only use its own workspace: that is checked without workspaces:read.
    const ref = await resolveWorkspace(this.api, { ...this.settings, storedWorkspace: undefined }, this.args.workspace);
    const workspace = ref.slug ? ref : (await this.lookUp(ref.id)) ?? ref;
    this.store.set('workspace', workspace.id);
    if (workspace.slug) this.store.set('workspaceSlug', workspace.slug);
    else this.store.delete('workspaceSlug');
    this.info(`Default workspace: ${workspace.slug ?? ''} (${workspace.id})`.replace(':  (', ': ('));
    if (process.env.HOP_WORKSPACE) this.info('HOP_WORKSPACE is set in the environment and overrides it');
    return workspace;
  }

  /** An id given as is: the workspace when the credential can list workspaces; refused when it is not among them. */
  private async lookUp(id: string): Promise<WorkspaceRef | undefined> {
    const listed = await this.api.paginate('listWorkspaces', { query: { limit: 100 } }).catch(() => undefined);
    if (!listed) return undefined;
    const found = listed.data.find((w) => w.id === id);
    if (!found) this.error(`no workspace "${id}" among yours (see \`hop workspaces list\`)`, { exit: 1 });
    return found;
  }
}

import { Args } from '@oclif/core';
import type { Workspace } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';

export default class WorkspacesUse extends BaseCommand<typeof WorkspacesUse> {
  static summary = 'Choose the default workspace for later commands';
  static args = { workspace: Args.string({ required: true, description: 'workspace id or slug' }) };

  async run(): Promise<Workspace> {
    const wanted = this.args.workspace;
    const { data } = await this.api.paginate('listWorkspaces', { query: { limit: 100 } });
    const workspace = data.find((w) => w.id === wanted || w.slug === wanted);
    if (!workspace) this.error(`no workspace "${wanted}" among yours (see \`hop workspaces list\`)`, { exit: 1 });
    this.store.set('workspace', workspace.id);
    this.info(`Default workspace: ${workspace.slug} (${workspace.id})`);
    if (process.env.HOP_WORKSPACE) this.info('HOP_WORKSPACE is set in the environment and overrides it');
    return workspace;
  }
}

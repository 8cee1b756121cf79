import { Flags } from '@oclif/core';
import type { Workspace } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { printRecord } from '../../render.js';

/** "Acme Marketing!" → "acme-marketing", the shape the API requires of a workspace slug. */
const slugify = (name: string) =>
  name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48);

export default class WorkspacesCreate extends BaseCommand<typeof WorkspacesCreate> {
  static summary = 'Create a workspace (you become its owner)';
  static examples = ['<%= config.bin %> workspaces create --name "Acme Marketing" --slug acme-mkt --use'];
  static flags = {
    name: Flags.string({ required: true, description: 'display name' }),
    slug: Flags.string({ description: '3-48 of a-z 0-9 -, unique and permanent (default: from the name)' }),
    use: Flags.boolean({ description: 'make it the default workspace' }),
  };

  async run(): Promise<Workspace> {
    const { name, slug = slugify(name), use } = this.flags;
    const { data } = await this.api.call('createWorkspace', { body: { name, slug } });
    if (use) this.store.set('workspace', data.id);
    if (!this.jsonEnabled()) printRecord(this.io, { id: data.id, slug: data.slug, name: data.name, plan: data.plan, role: data.role });
    this.info(`Created workspace ${data.slug}${use ? ', now the default' : ''}`);
    return data;
  }
}

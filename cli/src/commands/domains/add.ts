import { Args } from '@oclif/core';
import type { Domain } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { printRecord } from '../../render.js';
import { domainRecord } from '../../resource-views.js';

export default class DomainsAdd extends BaseCommand<typeof DomainsAdd> {
  static summary = 'Add a custom domain; prints the TXT record that proves it is yours';
  static description = 'Create the TXT record at your DNS provider, then run `hop domains verify <name>`.';
  static examples = ['<%= config.bin %> domains add go.example.com'];
  static args = { name: Args.string({ required: true, description: 'host name, e.g. go.example.com' }) };
  static flags = { workspace: workspaceFlag() };

  async run(): Promise<Domain> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.call('addDomain', { params: { workspaceId }, body: { name: this.args.name } });
    if (!this.jsonEnabled()) printRecord(this.io, domainRecord(data));
    this.info(`Next: add a TXT record ${data.verification.name} = "${data.verification.value}", then run \`hop domains verify ${data.name}\``);
    return data;
  }
}

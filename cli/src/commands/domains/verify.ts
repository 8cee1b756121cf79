import { Args } from '@oclif/core';
import type { Domain } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { domainIdFor } from '../../domain-ref.js';
import { workspaceFlag } from '../../flags.js';
import { printRecord } from '../../render.js';
import { domainRecord } from '../../resource-views.js';

export default class DomainsVerify extends BaseCommand<typeof DomainsVerify> {
  static summary = 'Check the TXT record of a domain; once verified, links can use it';
  static description = 'Exits 1 with the reason (record missing, or holding another value) when the check fails.';
  static examples = ['<%= config.bin %> domains verify go.example.com'];
  static args = { domain: Args.string({ required: true, description: 'domain name or id (dom_...)' }) };
  static flags = { workspace: workspaceFlag() };

  async run(): Promise<Domain> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const domainId = await domainIdFor(this.api, workspaceId, this.args.domain);
    const { data } = await this.api.call('verifyDomain', { params: { workspaceId, domainId } });
    if (!this.jsonEnabled()) printRecord(this.io, domainRecord(data));
    this.info(`Verified ${data.name}: create links on it with --domain ${data.name}`);
    return data;
  }
}

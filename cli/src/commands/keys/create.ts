import { Flags } from '@oclif/core';
import { SCOPES, type CreatedApiKey } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { createdKeyRecord } from '../../access-views.js';

export default class KeysCreate extends BaseCommand<typeof KeysCreate> {
  static summary = 'Create an API key; it is printed once, so store it now';
  static description = 'A key belongs to the workspace and to you, and never has more power than your role. With --json, the whole object (with `key`) goes to stdout, ready for a CI secret store.';
  static examples = [
    '<%= config.bin %> keys create --name ci --scope links:read --scope links:write',
    '<%= config.bin %> keys create --name deploy --scope links:write --json | jq -r .key | gh secret set HOP_API_KEY',
  ];
  static flags = {
    workspace: workspaceFlag(),
    name: Flags.string({ required: true, description: 'what the key is for' }),
    scope: Flags.string({ required: true, multiple: true, options: [...SCOPES], description: 'a scope the key carries; repeat for several' }),
  };

  async run(): Promise<CreatedApiKey> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const body = { name: this.flags.name, scopes: this.flags.scope as CreatedApiKey['scopes'] };
    const { data } = await this.api.call('createApiKey', { params: { workspaceId }, body });
    this.showSecretOnce(createdKeyRecord(data), data.key);
    this.info('This is the only time the key is shown: store it now (e.g. in your CI secret store).');
    return data;
  }
}

import { randomUUID } from 'node:crypto';
import { Args, Flags } from '@oclif/core';
import type { CreateLinkBody, Link } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { linkFieldFlags, workspaceFlag } from '../../flags.js';
import { linkBodyFromFlags, withScheme } from '../../link-body.js';
import { smartBodyFromFlags, smartLinkFlags } from '../../smart-link-flags.js';
import { newPassword } from '../../prompts.js';

export default class LinksCreate extends BaseCommand<typeof LinksCreate> {
  static summary = 'Shorten a URL; prints the short URL';
  static description = 'Piped or captured ($(hop links create ...)), stdout holds only the short URL.';
  static examples = [
    '<%= config.bin %> links create https://example.com/launch --slug launch --tag promo --expires 7d',
    'URL=$(<%= config.bin %> links create https://example.com --utm-source newsletter)',
    '<%= config.bin %> links create https://example.com --rule "country=DE,AT -> https://example.com/de" --ios https://apps.apple.com/app/id1',
    '<%= config.bin %> links create https://example.com --variant https://example.com/a 50 --variant https://example.com/b 50',
    'echo "$LINK_PASSWORD" | <%= config.bin %> links create https://example.com/private --password-stdin   # on a terminal: asked for',
  ];
  static args = { url: Args.string({ required: true, description: 'destination: an http(s) URL (a bare host such as example.com/launch gets https://)' }) };
  static flags = {
    workspace: workspaceFlag(),
    ...linkFieldFlags(),
    ...smartLinkFlags(),
    'idempotency-key': Flags.string({ description: 'reuse to make a retried create return the first link (default: random)' }),
  };

  async run(): Promise<Link> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const body = withScheme({ ...linkBodyFromFlags(this.flags), ...smartBodyFromFlags(this.flags), url: this.args.url } as CreateLinkBody, (m) => this.io.err(`${m}\n`));
    if (this.flags['password-stdin']) body.password = await newPassword('link password', this.io);
    const { data } = await this.api.call('createLink', {
      params: { workspaceId },
      body,
      idempotencyKey: this.flags['idempotency-key'] ?? randomUUID(),
    });
    if (!this.jsonEnabled()) process.stdout.write(`${data.shortUrl}\n`);
    if (this.io.stdoutIsTTY) this.info(`Created ${data.id} → ${data.url}`);
    return data;
  }
}

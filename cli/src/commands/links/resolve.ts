import { Args, Flags } from '@oclif/core';
import { DEVICES, type LinkResolution } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { parseTime, workspaceFlag } from '../../flags.js';
import { linkIdOf } from '../../link-lookup.js';
import { printRecord } from '../../render.js';

export default class LinksResolve extends BaseCommand<typeof LinksResolve> {
  static summary = 'Where a described visitor would go, and why (records no visit)';
  static description = 'Applies the link\'s app links, rules and A/B split as the redirector would. Device, OS and browser come from --ua unless given.';
  static examples = [
    '<%= config.bin %> links resolve launch --country DE --ua "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X)"',
    '<%= config.bin %> links resolve launch --language fr --at 2026-12-24T18:00:00Z --json',
  ];
  static args = { link: Args.string({ required: true, description: 'link id (lnk_...) or slug' }) };
  static flags = {
    workspace: workspaceFlag(),
    domain: Flags.string({ description: 'the slug\'s domain, when the slug exists on several' }),
    country: Flags.string({ description: 'two-letter country code (DE)' }),
    device: Flags.string({ options: [...DEVICES], description: 'device type' }),
    os: Flags.string({ description: 'operating system as analytics name it (iOS, Android, macOS, Windows, Linux)' }),
    browser: Flags.string({ description: 'browser as analytics name it (Chrome, Safari, Firefox)' }),
    language: Flags.string({ description: 'language tag or Accept-Language value (fr, de-AT)' }),
    ua: Flags.string({ description: 'a User-Agent: device, OS and browser are read from it' }),
    ip: Flags.string({ description: 'the visitor\'s address: the A/B variant they get today (not stored)' }),
    at: Flags.custom<string>({ helpValue: '<time|duration>', parse: async (input) => parseTime(input, 1) })({ description: 'when the visit happens: ISO time or a duration from now (default: now)' }),
  };

  async run(): Promise<LinkResolution> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const linkId = await linkIdOf(this.api, workspaceId, this.args.link, this.flags.domain);
    const { country, device, os, browser, language, ua, ip, at } = this.flags;
    const query = Object.fromEntries(Object.entries({ country, device, os, browser, language, ua, ip, at }).filter(([, v]) => v !== undefined));
    const { data } = await this.api.call('resolveLink', { params: { workspaceId, linkId }, query });
    if (!this.jsonEnabled()) printRecord(this.io, { url: data.url ?? '(an error page)', target: data.target, reason: data.reason });
    return data;
  }
}

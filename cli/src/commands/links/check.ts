import { Args, Flags } from '@oclif/core';
import { HEALTH_STATUSES, type Link } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { fetchAllLinks } from '../../link-batch.js';
import { linkIdOf } from '../../link-lookup.js';
import { printTable } from '../../render.js';

export default class LinksCheck extends BaseCommand<typeof LinksCheck> {
  static summary = 'Check that destinations still answer; exit 1 naming the broken ones (for CI)';
  static description = [
    'Each destination is requested now by the server (HEAD, else GET; up to 5 redirects; the server\'s address rules',
    'apply) and its health stored on the link. Exits 1 when a checked link is in a --fail-on state (default: broken).',
  ].join('\n');
  static examples = [
    '<%= config.bin %> links check --tag docs --fail-on broken',
    '<%= config.bin %> links check launch --json',
  ];
  static args = { link: Args.string({ required: false, description: 'one link (id or slug); default: every link' }) };
  static flags = {
    workspace: workspaceFlag(),
    domain: Flags.string({ description: 'the slug\'s domain, when the slug exists on several' }),
    tag: Flags.string({ char: 't', multiple: true, multipleNonGreedy: true, description: 'only links carrying this tag; repeat: all of them' }),
    'fail-on': Flags.string({
      multiple: true, multipleNonGreedy: true, options: [...HEALTH_STATUSES.filter((s) => s !== 'ok'), 'never'], default: ['broken'],
      description: 'exit 1 when a link is in this state; repeat for several (never: always exit 0)',
    }),
  };

  async run(): Promise<Link[]> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const links = await this.linksToCheck(workspaceId);
    const checked: Link[] = [];
    // One after another: the server is a polite visitor of each destination.
    for (const [i, link] of links.entries()) {
      if (process.stderr.isTTY && !this.jsonEnabled()) process.stderr.write(`\rChecking ${i + 1}/${links.length}…`);
      checked.push((await this.api.call('checkLink', { params: { workspaceId, linkId: link.id } })).data);
    }
    if (process.stderr.isTTY && !this.jsonEnabled()) process.stderr.write('\r\u001b[K');
    const failOn = new Set(this.flags['fail-on']);
    const failing = checked.filter((l) => l.health && failOn.has(l.health.status));
    if (this.jsonEnabled()) {
      if (failing.length) process.stdout.write(`${JSON.stringify(checked, null, 2)}\n`);
    } else {
      await printTable(this.io, checked, [
        { header: 'HEALTH', value: (l) => l.health?.status ?? '' },
        { header: 'CODE', value: (l) => l.health?.statusCode ?? '' },
        { header: 'SHORT URL', value: (l) => l.shortUrl },
        { header: 'DESTINATION', value: (l) => l.url, cutTo: 16 },
      ]);
    }
    if (failing.length) {
      const named = failing.map((l) => `${l.shortUrl} → ${l.url} (${l.health!.status}${l.health!.statusCode ? ` ${l.health!.statusCode}` : ''})`);
      throw new Error(`${failing.length} of ${checked.length} link(s) failed the check: ${named.join('; ')}`);
    }
    this.info(`Checked ${checked.length} link(s).`);
    return checked;
  }

  private async linksToCheck(workspaceId: string): Promise<Link[]> {
    if (this.args.link) {
      const linkId = await linkIdOf(this.api, workspaceId, this.args.link, this.flags.domain);
      return [(await this.api.call('getLink', { params: { workspaceId, linkId } })).data];
    }
    const tags = (this.flags.tag ?? []).map((t) => t.toLowerCase());
    return (await fetchAllLinks(this.api, workspaceId)).filter((l) => tags.every((t) => l.tags.includes(t)));
  }
}

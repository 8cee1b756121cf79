import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../base-command.js';
import { UsageError } from '../errors.js';
import { workspaceFlag } from '../flags.js';

export interface OpenResult { url: string; opened: boolean }

const PAGES = ['links', 'link', 'webhook', 'billing', 'analytics', 'settings'] as const;

export default class Open extends BaseCommand<typeof Open> {
  static summary = 'Open the dashboard page of a link, a webhook or the billing of the workspace';
  static description = 'Without arguments, opens the workspace\'s links. The dashboard lives at HOP_DASHBOARD_URL, by default {HOP_API_URL}/app. When no browser can be opened (no terminal, --no-browser, SSH), the address is printed on stdout instead.';
  static examples = ['<%= config.bin %> open', '<%= config.bin %> open link lnk_0abc...', '<%= config.bin %> open link launch', '<%= config.bin %> open webhook wh_0abc...', '<%= config.bin %> open billing'];
  static args = {
    page: Args.string({ options: [...PAGES], default: 'links', description: 'which page' }),
    id: Args.string({ description: 'the link (id or slug) or webhook (id); a webhook without one opens the list' }),
  };
  static flags = {
    workspace: workspaceFlag(),
    'no-browser': Flags.boolean({ description: 'print the address instead of opening a browser' }),
  };

  async run(): Promise<OpenResult> {
    const url = `${this.dashboardUrl()}${await this.pagePath()}`;
    const opened = !this.flags['no-browser'] && this.interactive && !this.jsonEnabled() && await this.openBrowser(url);
    if (opened) this.info(`Opened ${url}`);
    else if (!this.jsonEnabled()) process.stdout.write(`${url}\n`);
    return { url, opened };
  }

  private dashboardUrl(): string {
    return (process.env.HOP_DASHBOARD_URL || `${this.settings.apiUrl.replace(/\/+$/, '')}/app`).replace(/\/+$/, '');
  }

  /** The page's path below the dashboard: `/{ws}/links/{linkId}`, `/{ws}/settings/billing`, ... */
  private async pagePath(): Promise<string> {
    const { page, id } = this.args;
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data: ws } = await this.api.call('getWorkspace', { params: { workspaceId } });
    const base = `/${ws.slug}`;
    if (page === 'billing') return `${base}/settings/billing`;
    if (page === 'webhook') return id ? `${base}/webhooks/${encodeURIComponent(id)}` : `${base}/webhooks`;
    if (page === 'link') {
      if (!id) throw new UsageError('name the link: hop open link <lnk_id or slug>');
      return `${base}/links/${await this.linkId(workspaceId, id)}`;
    }
    return `${base}/${page}`;
  }

  private async linkId(workspaceId: string, idOrSlug: string): Promise<string> {
    if (idOrSlug.startsWith('lnk_')) return idOrSlug;
    const { data } = await this.api.call('listLinks', { params: { workspaceId }, query: { q: idOrSlug, limit: 100 } });
    const found = data.find((l) => l.slug === idOrSlug);
    if (!found) throw new UsageError(`no link with slug "${idOrSlug}" in this workspace`);
    return found.id;
  }

  private async openBrowser(url: string): Promise<boolean> {
    try {
      const { default: open } = await import('open');
      const child = await open(url);
      // `open` resolves once the opener starts; one that fails at once means no browser here.
      return await new Promise<boolean>((resolve) => {
        child.once('error', () => resolve(false));
        child.once('exit', (code) => resolve(code === 0));
        setTimeout(() => resolve(true), 1500).unref();
      });
    } catch {
      return false;
    }
  }
}

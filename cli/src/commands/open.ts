import { Args, Flags } from '@oclif/core';
import { dashboardPath } from '@hop/shared/dashboard-paths';
import { BaseCommand } from '../base-command.js';
import { UsageError } from '../errors.js';
import { workspaceFlag } from '../flags.js';

export interface OpenResult { url: string; opened: boolean }

const PAGES = ['links', 'link', 'webhook', 'billing', 'analytics', 'settings'] as const;

export default class Open extends BaseCommand<typeof Open> {
  static summary = 'Open the dashboard page of a link, a webhook or the billing of the workspace';
  static description = 'Without arguments, opens the workspace\'s links. The dashboard lives at HOP_DASHBOARD_URL, by default {HOP_API_URL}/app. When no browser can be opened (no terminal, --no-browser, SSH), the address is printed on stdout instead.';
  static examples = ['<%= config.bin %> open', '<%= config.bin %> open link lnk_0Ppq8sWb3c1Fz9Xk2Lm4', '<%= config.bin %> open link launch', '<%= config.bin %> open webhook wh_0Ppq8sWb3c1Fz9Xk2Lm4', '<%= config.bin %> open billing'];
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
    else if (!this.jsonEnabled()) this.io.out(`${url}\n`);
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
    const at = { ws: ws.slug };
    if (page === 'webhook') return id ? dashboardPath('webhook', { ...at, webhookId: id }) : dashboardPath('webhooks', at);
    if (page === 'link') {
      if (!id) throw new UsageError('name the link: hop open link <lnk_id or slug>');
      return dashboardPath('link', { ...at, linkId: await this.resolveLinkId(id, workspaceId) });
    }
    return dashboardPath(page as (typeof PAGES)[number], at);
  }

  private async openBrowser(url: string): Promise<boolean> {
    try {
      const { default: open } = await import('open');
      const child = await open(url);
      // `open` resolves once the opener starts; one that fails at once means no browser here. The
      // opener is detached and unreferenced: the timer keeps this process alive until either
      // says, else Node would find nothing left to wait for and end with the promise unsettled.
      return await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(true), 1500);
        const settle = (ok: boolean) => { clearTimeout(timer); resolve(ok); };
        child.once('error', () => settle(false));
        child.once('exit', (code) => settle(code === 0));
      });
    } catch {
      return false;
    }
  }
}
